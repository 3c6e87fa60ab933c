import { PauseCircle } from 'lucide-react'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import type { Dashboard } from '../api/get-dashboard'

export type UsagePause = NonNullable<Dashboard['usagePause']>

export const USAGE_PAUSE_TITLE = 'Practice is paused'

const pauseEnd = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' })

/** When a pause ends, in the student's time: "on Tuesday, September 9 at 3:30 PM". */
export function formatPauseEnd(iso: string) {
  return `on ${pauseEnd.format(new Date(iso))}`
}

/**
 * The usage guard's pause as a state of the account (spec §8's text), with
 * when practice opens again; the server sends both with the dashboard.
 */
export function UsagePauseNotice({ pause, id }: { pause: UsagePause; id?: string }) {
  return (
    <Alert variant="warning" id={id}>
      <PauseCircle aria-hidden="true" />
      <div>
        <AlertTitle>{USAGE_PAUSE_TITLE}</AlertTitle>
        <AlertDescription className="grid gap-1">
          <p>{pause.message}</p>
          <p className="font-medium">Practice opens again {formatPauseEnd(pause.endsAt)}.</p>
        </AlertDescription>
      </div>
    </Alert>
  )
}
