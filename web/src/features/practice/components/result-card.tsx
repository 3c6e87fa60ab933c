import { CloudOff } from 'lucide-react'
import { failures } from '@/api/failures'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { errorMessage } from '@/lib/api-client'
import { scoreVariant } from '@/lib/score'
import type { Attempt } from '../api/get-earlier-attempts'
import { useRetryAnswer } from '../api/retry-answer'
import { formatClock } from '../utils/countdown'
import { competencies, redFlags, scoringBreakdown } from '../utils/feedback'
import { legacyText, NO_MEANINGFUL_RESPONSE, TRANSCRIPT_ERROR, type ResultEntry } from '../utils/summary'
import { CompetencyTags, RedFlags, ScoringBreakdown } from './feedback-details'
import { EarlierAttempts } from './earlier-attempts'
import { Transcript } from './transcript'

const STATUS_LABEL: Record<ResultEntry['status'], string> = {
  pending: 'Not answered',
  queued: 'Queued',
  transcribing: 'Transcribing…',
  scoring: 'Scoring…',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
}

const IN_PROGRESS: readonly ResultEntry['status'][] = ['queued', 'transcribing', 'scoring']

function ScoreBadge({ score, label }: { score: number; label?: string }) {
  return <Badge variant={scoreVariant(score)}>{label ? `${label}: ${score}` : score}</Badge>
}

function Metrics({ metrics }: { metrics: NonNullable<ResultEntry['metrics']> }) {
  const rows: [string, string][] = [
    ['Duration', formatClock(metrics.durationSeconds)],
    ['Words per minute', String(Math.round(metrics.wordsPerMinute))],
    ['Fillers', String(metrics.fillerCount)],
  ]
  if (metrics.pausesMeasured) rows.push(['Longest pause', `${metrics.longestPauseSeconds.toFixed(1)} s`])
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
      {rows.map(([term, value]) => (
        <div key={term} className="rounded-md bg-muted p-2">
          <dt className="text-xs text-muted-foreground">{term}</dt>
          <dd className="font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * Scores, then any red flag (first: it explains a low score), the summary,
 * the competencies shown, suggestions, and how each section was scored.
 * Feedback before rubric v3 has no flags, competencies or levels, and
 * shows as it always did.
 */
function Feedback({ feedback }: { feedback: NonNullable<ResultEntry['feedback']> }) {
  const s = feedback.sectionScores
  const breakdown = scoringBreakdown(feedback)
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <ScoreBadge score={feedback.overallScore} label="Score" />
        <ScoreBadge score={s.overallImpression} label="Overall impression" />
        <ScoreBadge score={s.clarityStructure} label="Clarity & structure" />
        <ScoreBadge score={s.content} label="Content" />
      </div>
      {feedback.fallback ? (
        <p className="flex items-center gap-2 rounded-md border border-yellow-400 bg-yellow-50 p-2 text-sm text-yellow-900">
          <CloudOff aria-hidden="true" className="size-4 shrink-0" />
          <span>
            <strong>Scored offline</strong>
            {feedback.fallbackReason ? `: ${feedback.fallbackReason}` : null}
          </span>
        </p>
      ) : null}
      <RedFlags flags={redFlags(feedback)} />
      <p>{feedback.summary}</p>
      <CompetencyTags competencies={competencies(feedback)} />
      {feedback.suggestions?.length ? (
        <div>
          <h3 className="text-sm font-semibold">Suggestions</h3>
          <ul className="ml-5 list-disc text-sm">
            {feedback.suggestions.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {breakdown ? <ScoringBreakdown sections={breakdown} /> : null}
    </div>
  )
}

function RetryButton({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  const retry = useRetryAnswer()
  return (
    <div className="grid justify-items-start gap-1">
      <Button variant="outline" size="sm" onClick={() => retry.mutate({ sessionId, itemId })} disabled={retry.isPending}>
        Retry
      </Button>
      {retry.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(retry.error)}
        </p>
      ) : null}
    </div>
  )
}

/** A failure after transcription (while scoring) keeps the transcript; one before it shows the spec's "Error". */
function transcriptText(entry: ResultEntry): string {
  if (entry.transcript) return entry.transcript
  return entry.status === 'failed' ? TRANSCRIPT_ERROR : '—'
}

/** One question's result on the summary: progress while processing, then transcript, metrics and feedback. */
export function ResultCard({ entry, number, sessionId, earlier }: { entry: ResultEntry; number: number; sessionId?: string; earlier?: Attempt[] }) {
  const headingId = `result-${entry.key}`
  const processing = IN_PROGRESS.includes(entry.status)
  return (
    <Card aria-labelledby={headingId} role="article">
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="text-lg font-semibold leading-snug">
            {number}. {entry.question}
          </h2>
          <Badge variant="outline">{STATUS_LABEL[entry.status]}</Badge>
        </div>
        {entry.alsoAsked.map((q) => (
          <p key={q} className="font-medium leading-snug">
            <span className="text-muted-foreground">And: </span>
            {q}
          </p>
        ))}
        {entry.scenario ? (
          <details className="text-sm">
            <summary className="cursor-pointer font-medium text-primary">Scenario</summary>
            <p className="mt-1 whitespace-pre-line">{entry.scenario}</p>
          </details>
        ) : null}
        {entry.tip ? <p className="text-sm text-muted-foreground">Tip: {entry.tip}</p> : null}
      </CardHeader>
      {entry.status === 'skipped' || processing ? null : (
        <CardContent className="grid gap-4">
          <Transcript
            text={transcriptText(entry)}
            title={entry.kind === 'typed' ? 'Your written answer' : 'Transcript'}
            correction={entry.correction}
            // A scored answer, or one the engine heard nothing meaningful in, may be corrected; a typed one is already the student's words.
            correctable={
              entry.kind === 'spoken' && entry.status === 'done' && entry.transcript != null && sessionId && entry.itemId ? { sessionId, itemId: entry.itemId } : undefined
            }
          />
          {entry.metrics ? <Metrics metrics={entry.metrics} /> : null}
          {entry.status === 'failed' ? (
            <p className="whitespace-pre-wrap">{failures.feedbackFailed.message}</p>
          ) : entry.meaningful === false ? (
            <p className="text-sm font-medium">{NO_MEANINGFUL_RESPONSE}</p>
          ) : entry.feedback ? (
            <>
              <Feedback feedback={entry.feedback} />
              {earlier?.length ? <EarlierAttempts attempts={earlier} entry={entry} /> : null}
            </>
          ) : entry.legacyFeedback ? (
            <p className="whitespace-pre-wrap">{legacyText(entry.legacyFeedback)}</p>
          ) : null}
          {entry.status === 'failed' && entry.error ? <p className="text-sm text-destructive">{entry.error}</p> : null}
          {entry.status === 'failed' && entry.canRetry && sessionId && entry.itemId ? <RetryButton sessionId={sessionId} itemId={entry.itemId} /> : null}
        </CardContent>
      )}
    </Card>
  )
}
