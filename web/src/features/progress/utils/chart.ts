/** A series of a trend chart: one value per session, null where it was not measured. */
export interface Series {
  label: string
  values: (number | null)[]
}

/** The drawing area of a chart, in SVG user units. */
export interface Frame {
  width: number
  height: number
  left: number
  right: number
  top: number
  bottom: number
}

/**
 * The top of the value axis: a round number at or above every value, so
 * gridlines fall on readable steps. Scores always use 0–100.
 */
export function niceMax(values: (number | null)[]): number {
  const top = Math.max(0, ...values.filter((v): v is number => v !== null))
  if (top === 0) return 1
  const magnitude = 10 ** Math.floor(Math.log10(top))
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * magnitude >= top) return step * magnitude
  }
  return 10 * magnitude
}

/**
 * Evenly spaced axis values from 0 to max (a niceMax), both included: five
 * steps for a max of 2.5 or 5 times a power of ten, four otherwise, so that
 * every label is a round number.
 */
export function ticks(max: number): number[] {
  const mantissa = max / 10 ** Math.floor(Math.log10(max))
  const count = mantissa === 2.5 || mantissa === 5 ? 5 : 4
  return Array.from({ length: count + 1 }, (_, i) => Number(((max * i) / count).toFixed(2)))
}

/** Where the i-th of n sessions sits across the frame; one session sits in the middle. */
export function xAt(i: number, n: number, f: Frame): number {
  const inner = f.width - f.left - f.right
  return n <= 1 ? f.left + inner / 2 : f.left + (inner * i) / (n - 1)
}

/** Where a value sits up the frame, 0 at the bottom and max at the top. */
export function yAt(value: number, max: number, f: Frame): number {
  const inner = f.height - f.top - f.bottom
  return f.top + inner - (inner * Math.min(value, max)) / max
}

/**
 * The SVG path of a series: a line through its measured points, broken
 * where a session has no value rather than drawn across the gap.
 */
export function linePath(values: (number | null)[], max: number, f: Frame): string {
  let path = ''
  let pen = false
  values.forEach((v, i) => {
    if (v === null) {
      pen = false
      return
    }
    path += `${pen ? 'L' : 'M'}${xAt(i, values.length, f).toFixed(1)},${yAt(v, max, f).toFixed(1)}`
    pen = true
  })
  return path
}

/** A sentence a screen reader hears for the chart: where each series started and where it is now. */
export function describeTrend(series: Series[], unit: string): string {
  return series
    .map((s) => {
      const measured = s.values.filter((v): v is number => v !== null)
      if (measured.length === 0) return `${s.label}: not measured yet`
      const first = measured[0]
      const last = measured[measured.length - 1]
      return measured.length === 1 ? `${s.label}: ${last}${unit}` : `${s.label}: from ${first}${unit} to ${last}${unit}`
    })
    .join('; ')
}
