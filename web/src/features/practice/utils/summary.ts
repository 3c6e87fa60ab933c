import type { PracticeItem, PracticeSession } from '../api/get-practice-session'
import type { SavedSession } from '../api/get-saved-session'

/** Spec §8: what a failed answer shows instead of a transcript and feedback. */
export const TRANSCRIPT_ERROR = 'Error'
export const FEEDBACK_ERROR = 'Error generating feedback'
export const NO_MEANINGFUL_RESPONSE = 'No meaningful response detected. Skipping feedback.'

/** One question on the summary, from a live session or a saved one. */
export interface ResultEntry {
  key: string
  /** The live session's item id; absent when reviewing a saved session. */
  itemId?: string
  question: string
  tip: string
  status: PracticeItem['status']
  transcript: string | null
  metrics: PracticeItem['metrics'] | null
  feedback: PracticeItem['feedback'] | null
  /** Older feedback kept as text (or HTML); shown as plain text. */
  legacyFeedback: string
  meaningful: boolean | null
  error: string
  canRetry: boolean
}

export function entriesFromSession(session: PracticeSession): ResultEntry[] {
  return session.items.map((it) => ({
    key: it.id,
    itemId: it.id,
    question: it.question,
    tip: it.tip,
    status: it.status,
    // A failure after transcription (while scoring) keeps the transcript, as saving does.
    transcript: it.status === 'failed' ? it.transcript || TRANSCRIPT_ERROR : it.transcript,
    metrics: it.metrics,
    feedback: it.feedback,
    legacyFeedback: it.status === 'failed' ? FEEDBACK_ERROR : '',
    meaningful: it.meaningful,
    error: it.error,
    canRetry: it.canRetry,
  }))
}

export function entriesFromSaved(saved: SavedSession): ResultEntry[] {
  return saved.items.map((it, i) => {
    const failed = it.transcript === TRANSCRIPT_ERROR && it.legacyFeedback === FEEDBACK_ERROR
    // A saved answer with neither kind of feedback had nothing meaningful to score.
    const meaningful = it.skipped ? null : Boolean(it.feedback || it.legacyFeedback)
    return {
      key: String(i),
      question: it.question,
      tip: it.tip,
      status: it.skipped ? 'skipped' : failed ? 'failed' : 'done',
      transcript: it.skipped ? null : it.transcript,
      metrics: it.metrics ?? null,
      feedback: it.feedback,
      legacyFeedback: it.legacyFeedback ?? '',
      meaningful,
      error: '',
      canRetry: false,
    }
  })
}

/** The asked order, with skipped questions last (spec §4). */
export function orderForSummary<T extends { status: string }>(entries: readonly T[]): T[] {
  return [...entries.filter((e) => e.status !== 'skipped'), ...entries.filter((e) => e.status === 'skipped')]
}

/** "+6 vs last session", "-3 vs last session", "0 vs last session". */
export function formatImprovement(points: number): string {
  return `${points > 0 ? '+' : ''}${points} vs last session`
}

/** The save dialog's default title, in the user's locale (spec §5). */
export function defaultSessionTitle(now: Date, locale?: string): string {
  return `Session ${now.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`
}

/** Legacy feedback may be HTML: its text only, never markup (DOMParser runs no scripts). */
export function legacyText(html: string): string {
  if (!/[<&]/.test(html)) return html
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''
}
