import { TriangleAlert } from 'lucide-react'
import { cn } from '@/lib/utils'
import { formatClock } from '@/lib/session-time'
import { WARN_AT_SECONDS } from '../utils/countdown'

/**
 * The clock of one phase (reading, recording, typing). role="timer" is not
 * live: a screen reader hears only the milestones, through the session's
 * status region. At 30 seconds the clock turns to a warning that says so in
 * words, not colour alone. Untimed practice shows the time taken instead.
 */
export function PhaseTimer({ label, remaining, elapsed }: { label: string; remaining: number | null; elapsed: number }) {
  const warning = remaining !== null && remaining <= WARN_AT_SECONDS
  return (
    <div className={cn('flex flex-wrap items-center gap-x-3 gap-y-1 text-lg font-semibold', warning && 'text-red-700')}>
      <span>
        {remaining === null ? `${label} · time taken` : `${label} · time left`}{' '}
        <span role="timer" className="tabular-nums">
          {formatClock(remaining ?? elapsed)}
        </span>
      </span>
      {warning ? (
        <span className="inline-flex items-center gap-1 rounded-md border border-red-700 px-2 py-0.5 text-sm">
          <TriangleAlert aria-hidden="true" className="size-4" />
          {remaining === 0 ? 'Time is up' : `Less than ${WARN_AT_SECONDS} seconds`}
        </span>
      ) : null}
    </div>
  )
}
