import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { dashboardScoreVariant } from '@/lib/score'

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * One saved session in a list (the dashboard's recent sessions, history):
 * its title, when it was saved and anything more in detail, its average
 * (or, when no answer was scored, that it was not: never 0 %) and a way to
 * review it. reviewState travels with the link so the review
 * need not fetch what the list already has.
 */
export function SavedSessionRow({
  session,
  reviewTo,
  reviewState,
  detail,
}: {
  session: { id: string; title: string; createdAt: string; overallAvg: number; scored: boolean }
  reviewTo: string
  reviewState?: unknown
  detail?: ReactNode
}) {
  const avg = Math.round(session.overallAvg)
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium">{session.title}</p>
        <p className="text-sm text-muted-foreground">
          <time dateTime={session.createdAt}>{when.format(new Date(session.createdAt))}</time>
          {detail ? <> · {detail}</> : null}
          {session.scored ? null : <> · No answer could be scored</>}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {session.scored ? <Badge variant={dashboardScoreVariant(avg)}>{avg}%</Badge> : <Badge variant="outline">Not scored</Badge>}
        <Button asChild variant="outline" size="sm">
          <Link to={reviewTo} state={reviewState} aria-label={`Review ${session.title}`}>
            Review
          </Link>
        </Button>
      </div>
    </li>
  )
}
