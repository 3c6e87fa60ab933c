import type { components } from '@/api/schema'
import type { PracticeItem, PracticeSession } from '../api/get-practice-session'
import type { SavedSession } from '../api/get-saved-session'

/**
 * Spec §8: what a failed answer shows instead of a transcript, and what an
 * answer without meaningful content shows instead of feedback. The API
 * reports both as data (status "failed", meaningful false); these texts are
 * only how the summary words them. What a failed answer shows instead of its
 * feedback is the server's own words, failures.feedbackFailed.
 */
export const TRANSCRIPT_ERROR = 'Error'
export const NO_MEANINGFUL_RESPONSE = 'No meaningful response detected. Skipping feedback.'

/**
 * The fillers an answer's engine counted, or undefined when it counted
 * none it could see: an engine that drops hesitations (fillersSource
 * 'estimated') and found none has no count, not a count of 0.
 */
export function fillersCounted(metrics: NonNullable<PracticeItem['metrics']>): number | undefined {
  return metrics.fillersSource === 'estimated' && metrics.fillerCount === 0 ? undefined : metrics.fillerCount
}

/** One question on the summary, from a live session or a saved one. */
export interface ResultEntry {
  key: string
  /** The live session's item id; absent when reviewing a saved session. */
  itemId?: string
  kind: PracticeItem['kind']
  /** A station's scenario; empty for a question asked on its own. */
  scenario: string
  question: string
  /** A typed part's second question (an MMI station's follow-ups are not shown again). */
  alsoAsked: string[]
  tip: string
  status: PracticeItem['status']
  /** What the answer said; empty or null when a failure came before the transcript. */
  transcript: string | null
  metrics: PracticeItem['metrics'] | null
  feedback: PracticeItem['feedback'] | null
  /** Older feedback kept as text (or HTML); shown as plain text. */
  legacyFeedback: string
  /** False when the answer had no meaningful content, so it got no feedback. */
  meaningful: boolean | null
  /** Why the answer failed, for a live session's failed answer. */
  error: string
  canRetry: boolean
  /** Set when the student corrected the transcript: what the engine heard. */
  correction: NonNullable<PracticeItem['correction']> | null
  /** The transcript with the words the speech engine may have misheard marked; empty when none are (always for a saved copy). */
  transcriptParts: NonNullable<PracticeItem['transcriptParts']>
  /** How many words the student is asked to check before trusting the score. */
  uncertainWords: number
}

export function entriesFromSession(session: PracticeSession): ResultEntry[] {
  return session.items.map((it) => ({
    key: it.id,
    itemId: it.id,
    kind: it.kind,
    scenario: it.scenario,
    question: it.question,
    alsoAsked: it.kind === 'typed' ? it.followUps : [],
    tip: it.tip,
    status: it.status,
    transcript: it.transcript,
    metrics: it.metrics,
    feedback: it.feedback,
    legacyFeedback: '',
    meaningful: it.meaningful,
    error: it.error,
    canRetry: it.canRetry,
    correction: it.correction ?? null,
    transcriptParts: it.transcriptParts ?? [],
    uncertainWords: it.uncertainWords,
  }))
}

export function entriesFromSaved(saved: SavedSession): ResultEntry[] {
  return saved.items.map((it, i) => {
    const status = it.skipped ? 'skipped' : it.status === 'failed' ? 'failed' : 'done'
    // Sessions saved before structured feedback record neither status nor
    // the meaningful flag: an answer there without feedback had nothing meaningful.
    const legacy = !it.status
    const meaningful = it.skipped ? null : legacy ? Boolean(it.feedback || it.legacyFeedback) : it.meaningful
    return {
      key: String(i),
      // Saved since corrections exist: the live item it came from.
      itemId: it.itemId || undefined,
      kind: it.kind,
      scenario: it.scenario,
      question: it.question,
      alsoAsked: it.kind === 'typed' ? (it.followUps ?? []) : [],
      tip: it.tip,
      status,
      transcript: it.skipped ? null : it.transcript,
      metrics: it.metrics ?? null,
      feedback: it.feedback,
      legacyFeedback: it.legacyFeedback ?? '',
      meaningful,
      error: '',
      canRetry: false,
      correction: it.correction ?? null,
      transcriptParts: [],
      uncertainWords: 0,
    }
  })
}

/** An example answer (a landing page's) as one result: a spoken answer scored from its transcript alone. */
export function entryFromExample(example: components['schemas']['Example']): ResultEntry {
  return {
    key: 'example',
    kind: 'spoken',
    scenario: '',
    question: example.question,
    alsoAsked: [],
    tip: '',
    status: 'done',
    transcript: example.transcript,
    metrics: null,
    feedback: example.feedback,
    legacyFeedback: '',
    meaningful: true,
    error: '',
    canRetry: false,
    correction: null,
    transcriptParts: [],
    uncertainWords: 0,
  }
}

/** A visitor's try (on a landing page, without an account) as one result. */
export function entryFromTry(t: components['schemas']['Try']): ResultEntry {
  return {
    key: 'try',
    kind: t.kind,
    scenario: '',
    question: t.question,
    alsoAsked: [],
    tip: '',
    status: t.status,
    transcript: t.transcript,
    metrics: t.metrics ?? null,
    feedback: t.feedback ?? null,
    legacyFeedback: '',
    meaningful: t.meaningful,
    error: '',
    canRetry: false,
    correction: null,
    transcriptParts: t.transcriptParts ?? [],
    uncertainWords: t.uncertainWords,
  }
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

/**
 * The one change that would lift an answer's score most: both engines list
 * their suggestions most important first (a red flag's before all others).
 */
export function biggestLift(feedback: NonNullable<ResultEntry['feedback']>): string | null {
  return feedback.suggestions?.[0] ?? null
}

/** "We may have misheard 6 words — check them, then score again." */
export function checkWordsPrompt(uncertainWords: number): string {
  return uncertainWords === 1
    ? 'We may have misheard 1 word — check it, then score again.'
    : `We may have misheard ${uncertainWords} words — check them, then score again.`
}

/** What the summary says when no answer of the session was scored. */
export const NOTHING_SCORED = 'No answers were scored in this session.'

/**
 * Why no answer of a session was scored, from how each one ended, and
 * what to do about it. Such a session uses no free session.
 */
export function unscoredReason(entries: readonly Pick<ResultEntry, 'status' | 'meaningful' | 'kind'>[]): string {
  const answered = entries.filter((e) => e.status !== 'skipped')
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
