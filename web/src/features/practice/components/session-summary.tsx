import { Printer } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { PageStatus } from '@/components/ui/page-status'
import type { ProfessionSlug } from '@/lib/professions'
import { scoreVariant } from '@/lib/score'
import { sessionTime } from '@/lib/session-time'
import { usePracticeSession } from '../api/get-practice-session'
import { useEarlierAttempts } from '../api/get-earlier-attempts'
import { useSavedSession } from '../api/get-saved-session'
import { entriesFromSaved, entriesFromSession, formatImprovement, NOTHING_SCORED, orderForSummary, unscoredReason, type ResultEntry } from '../utils/summary'
import { ProfessionTag, type ProfessionNames } from './profession-tag'
import { EarlierAttempts } from './earlier-attempts'
import { ResultCard } from './result-card'
import { SaveSessionDialog } from './save-session-dialog'
import { SessionLoadError } from './session-load-error'

function SummaryLayout(props: {
  slug: ProfessionSlug
  /** The profession practised (which the page's own slug need not be), by its display name. */
  profession: string
  title: string
  average: ReactNode
  entries: ResultEntry[]
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
        {entries.map((entry, i) => {
          const attempts = entry.itemId ? earlier.get(entry.itemId) : undefined
          return (
            <li key={entry.key}>
              <ResultCard
                entry={entry}
                number={i + 1}
                sessionId={props.sessionId}
                earlier={attempts?.length ? <EarlierAttempts attempts={attempts} entry={entry} /> : undefined}
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
function NothingScored({ entries }: { entries: readonly ResultEntry[] }) {
  return (
    <div className="grid gap-1">
      <p className="font-medium">{NOTHING_SCORED}</p>
      <p className="text-sm text-muted-foreground">{unscoredReason(entries)}</p>
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
  const entries = orderForSummary(entriesFromSession(session))
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
  const entries = orderForSummary(entriesFromSaved(saved))
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
