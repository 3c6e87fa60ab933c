import type { components } from '@/api/schema'

/**
 * One answer as every screen shows it (the server's answer.Answer): a
 * practice session's question, a saved session's, the one a reviewer reads,
 * a visitor's try and a landing page's example all carry these fields, so
 * one card draws them all.
 */
export type Answer = components['schemas']['Answer']
export type AnswerStatus = Answer['status']
export type AnswerMetrics = NonNullable<Answer['metrics']>
export type TranscriptPart = NonNullable<Answer['transcriptParts']>[number]

/**
 * Spec §8: what a failed answer shows instead of a transcript, and what an
 * answer without meaningful content shows instead of feedback. The API
 * reports both as data (status "failed", meaningful false); these texts are
 * only how the card words them. What a failed answer shows instead of its
 * feedback is the server's own words, failures.feedbackFailed.
 */
export const TRANSCRIPT_ERROR = 'Error'
export const NO_MEANINGFUL_RESPONSE = 'No meaningful response detected. Skipping feedback.'

/** The statuses of an answer still being worked on. */
export const IN_PROGRESS: readonly AnswerStatus[] = ['queued', 'transcribing', 'scoring']

/**
 * The fillers an answer's engine heard, or undefined when it has no
 * figure: an engine that drops hesitations (fillersSource 'estimated')
 * gives none, not a guess from words that may be misheard.
 */
export function fillersCounted(metrics: AnswerMetrics): number | undefined {
  return metrics.fillersSource === 'estimated' ? undefined : metrics.fillerCount
}

/** Legacy feedback may be HTML: its text only, never markup (DOMParser runs no scripts). */
export function legacyText(html: string): string {
  if (!/[<&]/.test(html)) return html
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''
}

/**
 * The one change that would lift an answer's score most: both engines list
 * their suggestions most important first (a red flag's before all others).
 */
export function biggestLift(feedback: NonNullable<Answer['feedback']>): string | null {
  // No score to lift: content not judged (no overall score), or a perfect one.
  if (feedback.overallScore == null || feedback.overallScore >= 100) return null
  return feedback.suggestions?.[0] ?? null
}

/** What an answer with no overall score (its content was not judged) asks of the student. */
export const CORRECT_TO_SCORE = 'Correct the transcript to score your content'

/** "We may have misheard 6 words — check them, then score again." */
export function checkWordsPrompt(uncertainWords: number): string {
  return uncertainWords === 1
    ? 'We may have misheard 1 word — check it, then score again.'
    : `We may have misheard ${uncertainWords} words — check them, then score again.`
}

/** A typed part's second question, shown under the first (an MMI station's follow-ups are not shown again). */
export function alsoAsked(answer: Pick<Answer, 'kind' | 'followUps'>): string[] {
  return answer.kind === 'typed' ? answer.followUps : []
}
