import { Printer } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { Answer } from '@/components/answer/answer'
import { AnswerCard } from '@/components/answer/answer-card'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { PageStatus } from '@/components/ui/page-status'
import type { ProfessionSlug } from '@/lib/professions'
import { scoreVariant } from '@/lib/score'
import { sessionTime } from '@/lib/session-time'
import { usePracticeSession } from '../api/get-practice-session'
import { useEarlierAttempts } from '../api/get-earlier-attempts'
import { useSavedSession } from '../api/get-saved-session'
import { formatImprovement, NOTHING_SCORED, orderForSummary, unscoredReason } from '../utils/summary'
import { CorrectionForm } from './correction-form'
import { ProfessionTag, type ProfessionNames } from './profession-tag'
import { EarlierAttempts } from './earlier-attempts'
import { RetryButton } from './retry-button'
import { SaveSessionDialog } from './save-session-dialog'
import { SessionLoadError } from './session-load-error'

/**
 * One question on the summary: the answer, and where it came from — the
 * live session's item (which may be corrected or retried there) or a saved
 * copy of one.
 */
interface SummaryEntry {
  key: string
  answer: Answer
  /** The practice session's question it is, when known (a saved copy from before corrections is not). */
  itemId?: string
  tip: string
  canRetry: boolean
}

function SummaryLayout(props: {
  slug: ProfessionSlug
  /** The profession practised (which the page's own slug need not be), by its display name. */
  profession: string
  title: string
  average: ReactNode
  entries: SummaryEntry[]
  sessionId?: string
  /** True once every answer is settled: time to compare with earlier ones. */
  settled: boolean
  actions?: ReactNode
}) {
  const { slug, entries } = props
  const earlier = useEarlierAttempts(props.sessionId, props.settled)
  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <ProfessionTag name={props.profession} />
        <h1 className="text-3xl font-bold tracking-tight">{props.title}</h1>
        <div className="flex flex-wrap items-center gap-3" aria-live="polite">
          {props.average}
        </div>
      </div>
      <ol className="grid gap-4">
        {entries.map(({ key, answer, itemId, tip, canRetry }, i) => {
          const attempts = itemId ? earlier.get(itemId) : undefined
          const { sessionId } = props
          return (
            <li key={key}>
              <AnswerCard
                answer={answer}
                id={key}
                number={i + 1}
                tip={tip}
                correctionForm={
                  sessionId && itemId ? (initial, onDone) => <CorrectionForm initial={initial} sessionId={sessionId} itemId={itemId} onDone={onDone} /> : undefined
                }
                retry={sessionId && itemId && canRetry ? <RetryButton sessionId={sessionId} itemId={itemId} /> : undefined}
                earlier={attempts?.length ? <EarlierAttempts attempts={attempts} entry={answer} /> : undefined}
              />
            </li>
          )
        })}
      </ol>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap print:hidden">
        <Button asChild variant="outline">
          <Link to={`/${slug}/dashboard`}>Back to Dashboard</Link>
        </Button>
        {props.actions}
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print
        </Button>
        <Button asChild>
          <Link to={`/${slug}/setup`}>Start New Session</Link>
        </Button>
      </div>
    </div>
  )
}

/** A session with no scored answer: no percentage (it would read as 0 %), but what happened and why. */
function NothingScored({ entries }: { entries: readonly SummaryEntry[] }) {
  return (
    <div className="grid gap-1">
      <p className="font-medium">{NOTHING_SCORED}</p>
      <p className="text-sm text-muted-foreground">{unscoredReason(entries.map((e) => e.answer))}</p>
    </div>
  )
}

function Average({ score, improvement }: { score: number; improvement?: number | null }) {
  return (
    <>
      <span className="text-lg font-semibold">Session average</span>
      <Badge variant={scoreVariant(score)} className="text-base">
        {score}%
      </Badge>
      {improvement != null ? <span className="text-muted-foreground">{formatImprovement(improvement)}</span> : null}
    </>
  )
}

/** The summary of a session just practised: progress per answer (polled), then results; saving. */
export function SessionSummary({ sessionId, slug, nameOf }: { sessionId: string; slug: ProfessionSlug; nameOf: ProfessionNames }) {
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
        actions={<SaveSessionDialog sessionId={session.id} practisedAt={session.createdAt} disabled={active || session.processing} />}
      />
    </>
  )
}

/** A saved session (from the dashboard's Review button); its transcripts may be corrected. */
export function SavedSessionSummary({ savedId, slug, nameOf }: { savedId: string; slug: ProfessionSlug; nameOf: ProfessionNames }) {
  const query = useSavedSession(savedId)
  if (query.isPending) return <PageStatus>Loading...</PageStatus>
  if (query.isError) return <SessionLoadError error={query.error} slug={slug} />
  const saved = query.data
  // Each saved item keeps the live item it came from (since corrections exist), which is what a correction addresses.
  const entries = orderForSummary(saved.items).map((it, i) => ({ key: String(i), answer: it, itemId: it.itemId || undefined, tip: it.tip, canRetry: false }))
  return (
    <SummaryLayout
      slug={slug}
      profession={nameOf(saved.profession)}
      title={saved.title}
      average={
        <>
          {saved.scored ? <Average score={Math.round(saved.overallAvg)} /> : <NothingScored entries={entries} />}
          <span className="text-sm text-muted-foreground">Practiced {sessionTime(saved.createdAt)}</span>
        </>
      }
      entries={entries}
      sessionId={saved.practiceSessionId || undefined}
      settled
    />
  )
}
