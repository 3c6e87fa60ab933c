import { encode } from 'uqr'

/** The quiet zone the QR standard asks for around the code, in modules. */
const QUIET_ZONE = 4

/**
 * A QR code of text, drawn here as SVG (no image service sees the text):
 * one path of dark squares on a light square, crisp at any size.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: QUIET_ZONE })
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" className={className}>
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
