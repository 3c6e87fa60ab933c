import { CloudOff, Ear } from 'lucide-react'
import { useId, useState, type ReactNode } from 'react'
import { failures } from '@/api/failures'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { Disclosure } from '@/components/ui/disclosure'
import { scoreVariant } from '@/lib/score'
import { formatClock } from '@/lib/session-time'
import {
  alsoAsked,
  biggestLift,
  checkWordsPrompt,
  CORRECT_TO_SCORE,
  fillersCounted,
  IN_PROGRESS,
  legacyText,
  NO_MEANINGFUL_RESPONSE,
  TRANSCRIPT_ERROR,
  type Answer,
  type AnswerMetrics,
  type AnswerStatus,
} from './answer'
import { competencies, redFlags, scoringBreakdown, type Feedback } from './feedback'
import { CompetencyTags, RedFlags, ScoringBreakdown } from './feedback-details'
import { Transcript } from './transcript'
import { VideoDeliveryFigures } from './video-delivery'
import { FigureTiles } from './figure-tiles'

const STATUS_LABEL: Record<AnswerStatus, string> = {
  pending: 'Not answered',
  queued: 'Queued',
  transcribing: 'Transcribing…',
  scoring: 'Scoring…',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
}

function ScoreBadge({ score, label }: { score: number; label?: string }) {
  return <Badge variant={scoreVariant(score)}>{label ? `${label}: ${score}` : score}</Badge>
}

/**
 * The fillers figure: the hesitations the engine heard, and not a figure
 * at all from an engine that drops them.
 */
function fillersFigure(metrics: AnswerMetrics): string {
  const count = fillersCounted(metrics)
  return count === undefined ? 'Not measured' : String(count)
}

function Metrics({ metrics, fillersNote }: { metrics: AnswerMetrics; fillersNote?: string }) {
  const rows: [string, string][] = [
    ['Duration', formatClock(metrics.durationSeconds)],
    ['Words per minute', String(Math.round(metrics.wordsPerMinute))],
    ['Fillers', fillersFigure(metrics)],
  ]
  if (metrics.pausesMeasured) rows.push(['Longest pause', `${metrics.longestPauseSeconds.toFixed(1)} s`])
  return (
    <div className="grid gap-1">
      <FigureTiles rows={rows} />
      {fillersNote ? <p className="text-xs text-muted-foreground">{fillersNote}</p> : null}
    </div>
  )
}

/**
 * Before the score is trusted: how many words the speech engine may have
 * misheard, and the way straight into correcting them.
 */
function CheckWordsPrompt({ count, scored, onCheck }: { count: number; scored: boolean; onCheck: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">
      <Ear aria-hidden="true" className="size-5 shrink-0" />
      <p className="min-w-0 flex-1 basis-48 font-medium">{checkWordsPrompt(count, scored)}</p>
      <Button variant="outline" size="sm" className="print:hidden" onClick={onCheck}>
        Check the transcript
      </Button>
    </div>
  )
}

/** Shown whether "Scored offline" or not: a score a student should read with that in mind. */
function FallbackNotice({ feedback }: { feedback: Feedback }) {
  if (!feedback.fallback) return null
  return (
    <p className="flex items-center gap-2 rounded-md border border-yellow-400 bg-yellow-50 p-2 text-sm text-yellow-900">
      <CloudOff aria-hidden="true" className="size-4 shrink-0" />
      <span>
        <strong>Scored offline</strong>
        {feedback.fallbackReason ? `: ${feedback.fallbackReason}` : null}
      </span>
    </p>
  )
}

/** The one change that would lift the score most, where the eye lands first. */
function BiggestLift({ text }: { text: string }) {
  const headingId = useId()
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-1 rounded-md border-l-4 border-primary bg-muted p-3">
      <h3 id={headingId} className="text-sm font-semibold">
        The change that would lift this score most
      </h3>
      <p>{text}</p>
    </div>
  )
}

/**
 * What a student opens on demand: the section scores, the summary, the
 * competencies shown, the other suggestions and how each section was
 * scored. Feedback before rubric v3 has no competencies or levels, and
 * shows without them.
 */
function FeedbackDetails({ feedback }: { feedback: Feedback }) {
  const s = feedback.sectionScores
  const breakdown = scoringBreakdown(feedback)
  // The first suggestion is on the card already, as the change that would lift the score most.
  const more = feedback.suggestions?.slice(biggestLift(feedback) ? 1 : 0) ?? []
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <ScoreBadge score={s.overallImpression} label="Overall impression" />
        <ScoreBadge score={s.clarityStructure} label="Clarity & structure" />
        {feedback.contentUnjudged ? <Badge variant="outline">Content: not judged</Badge> : <ScoreBadge score={s.content} label="Content" />}
      </div>
      <p>{feedback.summary}</p>
      <CompetencyTags competencies={competencies(feedback)} />
      {more.length ? (
        <div>
          <h3 className="text-sm font-semibold">Suggestions</h3>
          <ul className="ml-5 list-disc text-sm">
            {more.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {breakdown ? <ScoringBreakdown sections={breakdown} /> : null}
    </div>
  )
}

/** A failure after transcription (while scoring) keeps the transcript; one before it shows the spec's "Error". */
function transcriptText(entry: Answer): string {
  if (entry.transcript) return entry.transcript
  return entry.status === 'failed' ? TRANSCRIPT_ERROR : '—'
}

/**
 * One answer, wherever it is shown — the summary, a saved session, the
 * page a reviewer opens, a try and a landing page's example: progress
 * while processing, then what matters first — the score, any red flag, the
 * one change that would lift the score most, and the transcript with the
 * words that may have been misheard marked — with the rest (section
 * scores, summary, delivery figures, criteria and evidence, earlier
 * answers) behind a disclosure that print opens. What only some screens
 * have comes in as slots, so that this shared card reaches no feature's
 * API: `correctionForm` (the student's own answer), `retry` (a failed
 * answer that may be processed again), `earlier` (their earlier answers to
 * the question) and `children` (a reviewer's comments, under the answer).
 * A result on its own (a landing page's example) has no number.
 */
export function AnswerCard({
  answer: entry,
  id,
  number,
  tip,
  correctionForm,
  retry,
  earlier,
  children,
}: {
  answer: Answer
  /** Unique on the page: the card's heading is labelled by it. */
  id: string
  number?: number
  tip?: string
  correctionForm?: (initial: string, onDone: () => void) => ReactNode
  retry?: ReactNode
  earlier?: ReactNode
  children?: ReactNode
}) {
  const headingId = `result-${id}`
  const processing = IN_PROGRESS.includes(entry.status)
  const feedback = entry.status === 'failed' || entry.meaningful === false ? null : entry.feedback
  const lift = feedback ? biggestLift(feedback) : null
  const details = feedback || entry.metrics || tip || earlier
  const [correcting, setCorrecting] = useState(false)
  // A scored answer, or one the engine heard nothing meaningful in, may be corrected; a typed one is already the student's words.
  const correctable = entry.kind === 'spoken' && entry.status === 'done' && entry.transcript != null ? correctionForm : undefined
  const fillersNote = feedback?.evidence?.find((e) => e.unjudged === 'not-measured')?.note
  // No overall score (its content was not judged): its delivery shows on the card, and how to have it scored.
  const unscored = feedback != null && feedback.overallScore == null
  return (
    <Card aria-labelledby={headingId} role="article" className="print:break-inside-auto print:shadow-none">
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="min-w-0 text-lg font-semibold leading-snug">
            {number ? `${number}. ` : null}
            {entry.question}
          </h2>
          {feedback && feedback.overallScore != null ? (
            <Badge variant={scoreVariant(feedback.overallScore)} className="text-sm">
              Score: {feedback.overallScore}
            </Badge>
          ) : feedback || entry.meaningful === false ? (
            // No content judged, or nothing heard to judge: not "Done", as if it had been scored.
            <Badge variant="outline">Not scored</Badge>
          ) : (
            <Badge variant="outline">{STATUS_LABEL[entry.status]}</Badge>
          )}
        </div>
        {alsoAsked(entry).map((q) => (
          <p key={q} className="font-medium leading-snug">
            <span className="text-muted-foreground">And: </span>
            {q}
          </p>
        ))}
        {entry.scenario ? (
          <Disclosure label="Scenario" className="text-sm" buttonClassName="text-primary">
            <p className="mt-1 whitespace-pre-line">{entry.scenario}</p>
          </Disclosure>
        ) : null}
      </CardHeader>
      {entry.status === 'skipped' || processing ? null : (
        <CardContent className="grid gap-4">
          {correctable && entry.uncertainWords > 0 && !correcting ? <CheckWordsPrompt count={entry.uncertainWords} scored={!unscored} onCheck={() => setCorrecting(true)} /> : null}
          {feedback ? (
            <>
              <FallbackNotice feedback={feedback} />
              <RedFlags flags={redFlags(feedback)} />
              {lift ? <BiggestLift text={lift} /> : null}
              {unscored ? <p className="font-medium">{CORRECT_TO_SCORE}</p> : null}
              {unscored && entry.metrics ? <Metrics metrics={entry.metrics} fillersNote={fillersNote} /> : null}
              {unscored && entry.videoDelivery ? <VideoDeliveryFigures delivery={entry.videoDelivery} notMeasured={entry.videoNotMeasured} /> : null}
            </>
          ) : null}
          <Transcript
            text={transcriptText(entry)}
            parts={entry.transcriptParts}
            title={entry.kind === 'typed' ? 'Your written answer' : 'Transcript'}
            metrics={entry.metrics}
            correction={entry.correction}
            correctionForm={correctable}
            editing={correcting}
            onEditingChange={setCorrecting}
          />
          {entry.status === 'failed' ? (
            <p className="whitespace-pre-wrap">{failures.feedbackFailed.message}</p>
          ) : entry.meaningful === false ? (
            <p className="text-sm font-medium">{NO_MEANINGFUL_RESPONSE}</p>
          ) : !entry.feedback && entry.legacyFeedback ? (
            <p className="whitespace-pre-wrap">{legacyText(entry.legacyFeedback)}</p>
          ) : null}
          {entry.status === 'failed' && entry.error ? <p className="text-sm text-destructive">{entry.error}</p> : null}
          {entry.status === 'failed' ? retry : null}
          {details ? (
            <Disclosure label={feedback ? 'Scores, feedback and evidence' : 'Details'} className="border-t border-border pt-3" buttonClassName="py-1 text-primary" panelClassName="mt-3 grid gap-4">
              {tip ? <p className="text-sm text-muted-foreground">Tip: {tip}</p> : null}
              {feedback ? <FeedbackDetails feedback={feedback} /> : null}
              {entry.metrics && !unscored ? <Metrics metrics={entry.metrics} fillersNote={fillersNote} /> : null}
              {entry.videoDelivery && !unscored ? <VideoDeliveryFigures delivery={entry.videoDelivery} notMeasured={entry.videoNotMeasured} /> : null}
              {feedback ? earlier : null}
            </Disclosure>
          ) : null}
        </CardContent>
      )}
      {children ? <CardContent className="grid gap-4 border-t border-border pt-4">{children}</CardContent> : null}
    </Card>
  )
}
