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
export type Word = components['schemas']['Word']

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

/**
 * Whose words a spoken transcript holds, said under it (Metrics.source):
 * nothing for the server's own recognition, the usual case.
 */
export function sourceNote(metrics: AnswerMetrics | undefined): string | null {
  switch (metrics?.source) {
    case 'aligned':
      return 'Your browser’s words, lined up with your recording: the timings, pauses and hesitations come from the audio.'
    case 'recognisedInstead':
      return 'Your browser’s words could not be lined up with your recording, so Whitecoat’s server transcribed it instead. Check the words below.'
    default:
      return null
  }
}

/** A line of the timed transcript: when it starts, and its words. */
export type TimedLine = { start: number; text: string }

/** Silence, in seconds, that starts a new line of the timed transcript. */
const LINE_GAP = 0.7
/** The most words on one line when the student does not pause. */
const LINE_WORDS = 12

/**
 * The engine's timed words as lines that each start at a pause, with the
 * time they start: the transcript as it was said.
 */
export function timedLines(words: readonly Word[]): TimedLine[] {
  const lines: { start: number; words: string[] }[] = []
  let lastEnd = -Infinity
  for (const w of words) {
    const line = lines.at(-1)
    if (!line || w.start - lastEnd >= LINE_GAP || line.words.length >= LINE_WORDS) lines.push({ start: w.start, words: [w.word] })
    else line.words.push(w.word)
    lastEnd = w.end
  }
  return lines.map((l) => ({ start: l.start, text: l.words.join(' ') }))
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
export function checkWordsPrompt(uncertainWords: number, scored = true): string {
  // An answer whose content was not judged has no score to redo.
  const then = scored ? 'score again' : 'have it scored'
  return uncertainWords === 1
    ? `We may have misheard 1 word — check it, then ${then}.`
    : `We may have misheard ${uncertainWords} words — check them, then ${then}.`
}

/** A typed part's second question, shown under the first (an MMI station's follow-ups are not shown again). */
export function alsoAsked(answer: Pick<Answer, 'kind' | 'followUps'>): string[] {
  return answer.kind === 'typed' ? answer.followUps : []
}
