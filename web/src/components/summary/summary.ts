import type { Answer } from '@/components/answer/answer'

/** The asked order, with skipped questions last (spec §4). */
export function orderForSummary<T extends { status: string }>(entries: readonly T[]): T[] {
  return [...entries.filter((e) => e.status !== 'skipped'), ...entries.filter((e) => e.status === 'skipped')]
}

/** "+6 vs last session", "-3 vs last session", "0 vs last session". */
export function formatImprovement(points: number): string {
  return `${points > 0 ? '+' : ''}${points} vs last session`
}

/** What the summary says when no answer of the session was scored. */
export const NOTHING_SCORED = 'No answers were scored in this session.'

/** Why a session whose answers were heard but not judged has no average. */
export const UNJUDGED_SESSION = 'We may have misheard too much of your answer to score its content. Correct the transcript below to score it.'

/**
 * Why no answer of a session was scored, from how each one ended, and
 * what to do about it. A session of silent, failed or skipped answers
 * uses no free session (a heard one does, even unjudged).
 */
export function unscoredReason(
  entries: readonly (Pick<Answer, 'status' | 'meaningful' | 'kind'> & { feedback?: { overallScore?: number | null } | null })[],
): string {
  const answered = entries.filter((e) => e.status !== 'skipped')
  // Heard and given its delivery, but too much of it may be misheard to
  // judge its content: the fix is the student's, in the transcript.
  if (answered.some((e) => e.feedback != null && e.feedback.overallScore == null)) return UNJUDGED_SESSION
  const tail = 'It is not counted and does not use a free session.'
  if (answered.length === 0) return `Every question was skipped. ${tail}`
  if (answered.every((e) => e.status === 'failed')) return `Your answers could not be processed. ${tail}`
  if (answered.every((e) => e.status !== 'failed' && e.meaningful === false)) {
    return answered.every((e) => e.kind === 'typed')
      ? `Your answers had no words in them to score. ${tail}`
      : `No words were recognized in your answers: check that your microphone is on and not muted, then try again. ${tail}`
  }
  return `Each answer was silent, could not be processed or was skipped. ${tail}`
}
