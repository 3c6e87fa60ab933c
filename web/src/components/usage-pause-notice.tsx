import type { ReactNode, Ref } from 'react'
import { PauseCircle } from 'lucide-react'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import type { components } from '@/api/schema'

export type UsagePause = components['schemas']['UsagePause']

export const USAGE_PAUSE_TITLE = 'Practice is paused'

const pauseEnd = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' })

/** When a pause ends, in the student's time: "on Tuesday, September 9 at 3:30 PM". */
export function formatPauseEnd(iso: string) {
  return `on ${pauseEnd.format(new Date(iso))}`
}

/**
 * The usage guard's pause as a state of the account (spec §8's text), with
 * when practice opens again; the server sends both with the dashboard. On
 * the dashboard and the setup it is one notice among others; where it ends
 * a practice session it is the page's heading, with what became of the
 * session as children.
 */
export function UsagePauseNotice({
  pause,
  id,
  titleAs,
  titleRef,
  children,
}: {
  pause: UsagePause
  id?: string
  titleAs?: 'h1' | 'h2'
  /** A title given a ref can take the focus (tabIndex -1). */
  titleRef?: Ref<HTMLHeadingElement>
  children?: ReactNode
}) {
  return (
    <Alert variant="warning" id={id}>
      <PauseCircle aria-hidden="true" />
      <div>
        <AlertTitle as={titleAs} ref={titleRef} tabIndex={titleRef ? -1 : undefined}>
          {USAGE_PAUSE_TITLE}
        </AlertTitle>
        <AlertDescription className="grid gap-1">
          <p>{pause.message}</p>
          <p className="font-medium">Practice opens again {formatPauseEnd(pause.endsAt)}.</p>
          {children}
        </AlertDescription>
      </div>
    </Alert>
  )
}
