import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { ProfessionNames } from '@/components/profession-tag'
import { SessionLoadError } from '@/components/session-load-error'
import { orderForSummary } from '@/components/summary/summary'
import { Average, NothingScored, SummaryLayout, type SummarySlots } from '@/components/summary/summary-layout'
import { PageStatus } from '@/components/ui/page-status'
import type { ProfessionSlug } from '@/lib/professions'
import { usePracticeSession } from '../api/get-practice-session'
import { CorrectionForm } from './correction-form'
import { RetryButton } from './retry-button'

/**
 * The summary of a session just practised: progress per answer (polled),
 * then results, each correctable and a failed one retried. What belongs to
 * the student's record comes from the route: the earlier answers to each
 * question (`earlier`) and saving the session (`save`, its action).
 */
export function SessionSummary({
  sessionId,
  slug,
  nameOf,
  earlier,
  save,
}: {
  sessionId: string
  slug: ProfessionSlug
  nameOf: ProfessionNames
  earlier: SummarySlots['earlier']
  save: (props: { sessionId: string; practisedAt: string; disabled: boolean }) => ReactNode
}) {
  const query = usePracticeSession(sessionId, { poll: true })
  if (query.isPending) return <PageStatus>Loading...</PageStatus>
  // A failed poll keeps showing the last answer; the next poll tries again.
  if (!query.data) return <SessionLoadError error={query.error} slug={slug} />
  const session = query.data
  const active = session.status === 'active'
  const entries = orderForSummary(session.items).map((it) => ({ key: it.id, answer: it, itemId: it.id, tip: it.tip, canRetry: it.canRetry }))
  const average = session.processing ? (
    <span className="text-muted-foreground">Scoring your answers…</span>
  ) : session.averageScore != null ? (
    <Average score={session.averageScore} improvement={session.improvement} />
  ) : (
    <NothingScored entries={entries} />
  )
  return (
    <>
      {active ? (
        <p className="mb-4 rounded-md border border-border p-3 text-sm">
          This session is still in progress. <Link to={`/${slug}/session?id=${encodeURIComponent(sessionId)}`} className="font-medium text-primary underline">Return to the session</Link>
        </p>
      ) : null}
      <SummaryLayout
        slug={slug}
        profession={nameOf(session.profession)}
        title="Session summary"
        average={average}
        entries={entries}
        sessionId={session.id}
        settled={!active && !session.processing}
        actions={save({ sessionId: session.id, practisedAt: session.createdAt, disabled: active || session.processing })}
        correctionForm={(props) => <CorrectionForm {...props} />}
        retry={(props) => <RetryButton {...props} />}
        earlier={earlier}
      />
    </>
  )
}
