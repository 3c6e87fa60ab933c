import { formatClock } from '@/lib/session-time'
import type { Answer } from './answer'
import { FigureTiles } from './figure-tiles'

export type VideoDelivery = NonNullable<Answer['videoDelivery']>
type LookAway = VideoDelivery['looksAway'][number]

/** Share of part in whole as a whole percentage; 0 of nothing. */
function percent(part: number, whole: number): string {
  return `${whole > 0 ? Math.round((100 * Math.min(part, whole)) / whole) : 0}%`
}

/** "Looked down from 0:41 for 9 s". */
export function lookAwayText(l: LookAway): string {
  const where = l.toward === 'out-of-frame' ? 'Out of the frame' : `Looked ${l.toward}`
  return `${where} from ${formatClock(Math.round(l.atSeconds))} for ${Math.round(l.seconds)} s`
}

/**
 * A video answer's presence on camera, as the student's browser measured
 * it on the device (issue 42): eye contact, time in the frame, framing and
 * steadiness as figures, and the long looks away with their times; or why
 * it could not be measured. The targets and verdicts are in the scoring's
 * evidence.
 */
export function VideoDeliveryFigures({ delivery, notMeasured }: { delivery: VideoDelivery; notMeasured?: string }) {
  const worstFraming = Math.max(
    delivery.framing.tooSmallSeconds,
    delivery.framing.tooLargeSeconds,
    delivery.framing.offCenterSeconds,
    delivery.framing.cutOffSeconds,
  )
  const rows: [string, string][] = [
    ['Eye contact', percent(delivery.eyeContactSeconds, delivery.faceSeconds)],
    ['In the frame', percent(delivery.faceSeconds, delivery.watchedSeconds)],
    ['Well framed', percent(delivery.faceSeconds - worstFraming, delivery.faceSeconds)],
    ['Head movement', `${Math.round(delivery.headMovement)}° per s`],
  ]
  return (
    <section aria-label="On camera" className="grid gap-2">
      <h3 className="text-sm font-semibold">On camera</h3>
      {notMeasured ? (
        <p className="text-sm text-muted-foreground">{notMeasured}</p>
      ) : (
        <>
          <FigureTiles rows={rows} />
          {delivery.looksAway.length > 0 ? (
            <div>
              <h4 className="text-xs font-medium text-muted-foreground">Long looks away</h4>
              <ul className="ml-5 list-disc text-sm">
                {delivery.looksAway.map((l) => (
                  <li key={l.atSeconds}>{lookAwayText(l)}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
      <p className="text-xs text-muted-foreground">Measured on your device; no picture was sent.</p>
    </section>
  )
}
