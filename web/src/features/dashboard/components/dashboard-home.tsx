import { useId, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { SavedSessionRow } from '@/components/saved-session-row'
import { normaliseSlug, type ProfessionSlug } from '@/lib/professions'
import type { Dashboard } from '../api/get-dashboard'
import { UsagePauseNotice } from '@/components/usage-pause-notice'

export const UPGRADE_TO_PRACTICE = 'Upgrade to Practice'
export const UPGRADE_TO_PREMIUM = 'Upgrade to Premium'
/** What the dashboard says when the verification link signed the student in. */
export const EMAIL_CONFIRMED_WELCOME = 'Your email is confirmed. Welcome to Whitecoat!'

/** How renderUpgrade draws the button: the page's one action, or an offer beside another. */
export type UpgradeEmphasis = 'primary' | 'secondary'
/** The Average Score card before any session has been scored: no 0 %. */
export const NO_AVERAGE_YET = 'No score yet'

function StatCard({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
          {label}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold tabular-nums">{value}</p>
        {note ? <p className="mt-1 text-sm text-muted-foreground">{note}</p> : null}
      </CardContent>
    </Card>
  )
}

/**
 * The verified user's dashboard: access, stats, recent sessions and the way
 * into practice. renderUpgrade draws the button that starts a purchase;
 * notice is shown above everything (checkout's return, the welcome).
 *
 * Each state has one way on: Start practice, or while locked the one
 * upgrade button, with the banner saying why; a trial student who may
 * still practise is offered Premium beside it. While the usage guard
 * pauses the account, Start is disabled and the pause says until when.
 */
export function DashboardHome({
  name,
  dashboard,
  setupSlug,
  renderUpgrade,
  notice,
}: {
  name: string
  dashboard: Dashboard
  setupSlug: ProfessionSlug
  renderUpgrade?: (label: string, emphasis: UpgradeEmphasis) => ReactNode
  notice?: ReactNode
}) {
  const pauseId = useId()
  const greeting = name.trim() ? `Welcome, ${name.trim()}` : 'Welcome'
  const { access, stats, usagePause } = dashboard
  const recent = dashboard.recentSessions
  // Paying does not lift a usage pause: no offer beside one (issue 41).
  const offerPremium = access.practiceEnabled && access.status === 'free_trial_active' && !usagePause && renderUpgrade
  let action
  if (access.practiceEnabled && usagePause) {
    action = (
      <Button size="lg" disabled aria-describedby={pauseId}>
        Start practice
      </Button>
    )
  } else if (access.practiceEnabled) {
    action = (
      <Button asChild size="lg">
        <Link to={`/${setupSlug}/setup`}>Start practice</Link>
      </Button>
    )
  } else if (renderUpgrade) {
    action = renderUpgrade(UPGRADE_TO_PRACTICE, 'primary')
  } else {
    action = (
      <Button size="lg" disabled>
        {UPGRADE_TO_PRACTICE}
      </Button>
    )
  }
  return (
    <div className="grid gap-6">
      {notice}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{greeting}</h1>
            <Badge variant="secondary">{access.badge}</Badge>
          </div>
          <p className="mt-1 text-muted-foreground">{access.headerText}</p>
        </div>
        {action}
      </div>
      {usagePause ? <UsagePauseNotice pause={usagePause} id={pauseId} /> : null}
      {access.banner ? (
        <Alert variant={access.practiceEnabled ? 'default' : 'warning'}>
          <AlertDescription className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <span>{access.banner}</span>
            {offerPremium ? renderUpgrade(UPGRADE_TO_PREMIUM, 'secondary') : null}
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Sessions Completed" value={String(stats.sessionsCompleted)} />
        <StatCard label="Questions Practiced" value={String(stats.questionsPracticed)} />
        {stats.sessionsCompleted > 0 ? (
          <StatCard label="Average Score" value={`${stats.averageScore}%`} />
        ) : (
          <StatCard label="Average Score" value={NO_AVERAGE_YET} note="Your average shows once a session is scored." />
        )}
      </div>
      {stats.sessionsCompleted > 0 && !access.historyLocked ? (
        <Link to={`/${setupSlug}/progress`} className="-mt-2 justify-self-start text-sm font-medium text-primary underline-offset-4 hover:underline">
          See your progress: trends and competencies
        </Link>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle as="h2">Recent Practice Sessions</CardTitle>
        </CardHeader>
        <CardContent>
          {recent.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {access.historyLocked ? 'Your session history is locked until you upgrade.' : 'Your saved practice sessions will appear here.'}
            </p>
          ) : (
            <>
              <ul className="divide-y divide-border">
                {recent.map((s) => (
                  <SavedSessionRow
                    key={s.id}
                    session={s}
                    reviewTo={`/${normaliseSlug(s.profession) ?? setupSlug}/summary?saved=${encodeURIComponent(s.id)}`}
                    reviewState={{ saved: s }}
                  />
                ))}
              </ul>
              <Link to={`/${setupSlug}/history`} className="mt-2 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline">
                See all sessions
              </Link>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
