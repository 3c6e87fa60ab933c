import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { scoreVariant } from '@/lib/score'
import { sessionTime } from '@/lib/session-time'

/**
 * One saved session in a list (the dashboard's recent sessions, history):
 * its title, when it was practised and anything more in detail, its average
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
      {/* Sized by its row, never by its title: a long title is cut short
          with an ellipsis instead of widening every box around it (a grid's
          column grows to its items' widest unbreakable line). */}
      <div className="min-w-0 flex-1 [contain:inline-size]">
        <p className="truncate font-medium" title={session.title}>
          {session.title}
        </p>
        <p className="text-sm text-muted-foreground">
          <time dateTime={session.createdAt}>{sessionTime(session.createdAt)}</time>
          {detail ? <> · {detail}</> : null}
          {session.scored ? null : <> · No answer could be scored</>}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {session.scored ? <Badge variant={scoreVariant(avg)}>{avg}%</Badge> : <Badge variant="outline">Not scored</Badge>}
        <Button asChild variant="outline" size="sm">
          <Link to={reviewTo} state={reviewState} aria-label={`Review ${session.title}`}>
            Review
          </Link>
        </Button>
      </div>
    </li>
  )
}
