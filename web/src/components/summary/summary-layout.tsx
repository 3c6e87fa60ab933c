import { Printer } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { Answer } from '@/components/answer/answer'
import { AnswerCard } from '@/components/answer/answer-card'
import { ProfessionTag } from '@/components/profession-tag'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import type { ProfessionSlug } from '@/lib/professions'
import { scoreVariant } from '@/lib/score'
import { formatImprovement, NOTHING_SCORED, unscoredReason } from './summary'

/**
 * One question on the summary: the answer, and where it came from — the
 * live session's item (which may be corrected or retried there) or a saved
 * copy of one.
 */
export interface SummaryEntry {
  key: string
  answer: Answer
  /** The practice session's question it is, when known (a saved copy from before corrections is not). */
  itemId?: string
  tip: string
  canRetry: boolean
}

/** A question of a practice session, which a correction or a retry addresses. */
export interface SessionItem {
  sessionId: string
  itemId: string
}

/** An answer's earlier answers to the same question (the answer card's `earlier`), or nothing when there are none. */
export type EarlierOf = (itemId: string, answer: Answer) => ReactNode

/**
 * What fetches the earlier answers to a session's questions: once its
 * answers are settled, it draws `children` with each one's.
 */
export interface EarlierAnswersProps {
  sessionId: string | undefined
  settled: boolean
  children: (earlierOf: EarlierOf) => ReactNode
}

/**
 * What the summary's answers show that belongs to a feature, given by the
 * screen that composes it (the answer card's slots): the form that corrects
 * a transcript, the retry of a failed answer, the earlier answers.
 */
export interface SummarySlots {
  correctionForm?: (props: SessionItem & { initial: string; onDone: () => void }) => ReactNode
  retry?: (props: SessionItem) => ReactNode
  earlier?: (props: EarlierAnswersProps) => ReactNode
}

/** A summary's page, the live session's and a saved one's: its heading and average, each answer, and the way on. */
export function SummaryLayout(
  props: {
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
  } & SummarySlots,
) {
  const { slug, entries, sessionId, correctionForm, retry } = props
  const answers = (earlierOf?: EarlierOf) => (
    <ol className="grid gap-4">
      {entries.map(({ key, answer, itemId, tip, canRetry }, i) => (
        <li key={key}>
          <AnswerCard
            answer={answer}
            id={key}
            number={i + 1}
            tip={tip}
            correctionForm={sessionId && itemId && correctionForm ? (initial, onDone) => correctionForm({ initial, sessionId, itemId, onDone }) : undefined}
            retry={sessionId && itemId && canRetry && retry ? retry({ sessionId, itemId }) : undefined}
            earlier={itemId && earlierOf ? earlierOf(itemId, answer) : undefined}
          />
        </li>
      ))}
    </ol>
  )
  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <ProfessionTag name={props.profession} />
        <h1 className="text-3xl font-bold tracking-tight">{props.title}</h1>
        <div className="flex flex-wrap items-center gap-3" aria-live="polite">
          {props.average}
        </div>
      </div>
      {props.earlier ? props.earlier({ sessionId, settled: props.settled, children: answers }) : answers()}
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
export function NothingScored({ entries }: { entries: readonly SummaryEntry[] }) {
  return (
    <div className="grid gap-1">
      <p className="font-medium">{NOTHING_SCORED}</p>
      <p className="text-sm text-muted-foreground">{unscoredReason(entries.map((e) => e.answer))}</p>
    </div>
  )
}

export function Average({ score, improvement }: { score: number; improvement?: number | null }) {
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
