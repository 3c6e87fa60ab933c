import { useId } from 'react'
import { useElementWidth } from '@/hooks/use-element-width'
import { describeTrend, linePath, ticks, xAt, yAt, type Frame, type Series } from '../utils/chart'

/**
 * Each series' look: a colour with at least 3:1 contrast on white, and a
 * dash pattern and marker of its own so that no series is told apart by
 * colour alone.
 */
const LOOKS = [
  { stroke: '#0f766e', dash: undefined, marker: 'circle' },
  { stroke: '#1d4ed8', dash: '6 4', marker: 'square' },
  { stroke: '#b45309', dash: '2 3', marker: 'triangle' },
  { stroke: '#7e22ce', dash: '10 4 2 4', marker: 'diamond' },
] as const

type Marker = (typeof LOOKS)[number]['marker']

function lookOf(k: number) {
  return LOOKS[k % LOOKS.length] ?? LOOKS[0]
}

function MarkerShape({ shape, x, y, color }: { shape: Marker; x: number; y: number; color: string }) {
  switch (shape) {
    case 'circle':
      return <circle cx={x} cy={y} r={4} fill={color} />
    case 'square':
      return <rect x={x - 3.5} y={y - 3.5} width={7} height={7} fill={color} />
    case 'triangle':
      return <path d={`M${x},${y - 4.5}L${x + 4.5},${y + 3.5}L${x - 4.5},${y + 3.5}Z`} fill={color} />
    case 'diamond':
      return <path d={`M${x},${y - 5}L${x + 5},${y}L${x},${y + 5}L${x - 5},${y}Z`} fill={color} />
  }
}

const HEIGHT = 220

/**
 * A line chart of values per session, drawn as SVG at its real width (no
 * chart library: this is all the page needs, in a few kilobytes). The
 * picture is one image to a screen reader, described by where each series
 * began and where it is now; the table under the charts has every figure.
 */
export function TrendChart({ title, series, dates, max, unit }: { title: string; series: Series[]; dates: string[]; max: number; unit: string }) {
  const titleId = useId()
  const [ref, width] = useElementWidth<HTMLDivElement>(640)
  const f: Frame = { width, height: HEIGHT, left: 40, right: 16, top: 12, bottom: 28 }
  const n = dates.length
  // At most one date label per 90 px, always the first and the last.
  const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor((width - f.left - f.right) / 90))))
  const labelled = dates.map((_, i) => i === 0 || i === n - 1 || (i % every === 0 && n - 1 - i >= every / 2))

  return (
    <figure aria-labelledby={titleId} className="grid gap-2">
      <figcaption id={titleId} className="font-semibold">
        {title}
      </figcaption>
      <div ref={ref} className="w-full">
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={`${title}. ${describeTrend(series, unit)}.`} className="block max-w-full">
          {ticks(max).map((t) => (
            <g key={t}>
              <line x1={f.left} x2={width - f.right} y1={yAt(t, max, f)} y2={yAt(t, max, f)} stroke="#e2e8f0" />
              <text x={f.left - 6} y={yAt(t, max, f)} dy="0.32em" textAnchor="end" fontSize={11} fill="#475569">
                {t}
              </text>
            </g>
          ))}
          {dates.map((d, i) =>
            labelled[i] ? (
              <text key={i} x={xAt(i, n, f)} y={HEIGHT - 8} textAnchor={n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle'} fontSize={11} fill="#475569">
                {d}
              </text>
            ) : null,
          )}
          {series.map((s, k) => {
            const look = lookOf(k)
            return (
              <g key={s.label}>
                <path d={linePath(s.values, max, f)} fill="none" stroke={look.stroke} strokeWidth={2} strokeDasharray={look.dash} strokeLinejoin="round" />
                {s.values.map((v, i) => (v === null ? null : <MarkerShape key={i} shape={look.marker} x={xAt(i, n, f)} y={yAt(v, max, f)} color={look.stroke} />))}
              </g>
            )
          })}
        </svg>
      </div>
      {series.length > 1 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label={`${title}: legend`}>
          {series.map((s, k) => {
            const look = lookOf(k)
            return (
              <li key={s.label} className="flex items-center gap-2">
                <svg width={28} height={12} aria-hidden="true">
                  <line x1={0} x2={28} y1={6} y2={6} stroke={look.stroke} strokeWidth={2} strokeDasharray={look.dash} />
                  <MarkerShape shape={look.marker} x={14} y={6} color={look.stroke} />
                </svg>
                {s.label}
              </li>
            )
          })}
        </ul>
      ) : null}
    </figure>
  )
}
