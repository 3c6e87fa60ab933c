import { limits } from '@/api/limits'

/**
 * A custom session asks at most as many questions as any session (spec §9),
 * as the server declares. (The request's `questions.maxItems` is looser: the
 * server drops blanks and repeats before it counts.)
 */
export const MAX_CUSTOM_QUESTIONS = limits.createPracticeSession.body.questionCount.maximum

/** Trims and collapses inner whitespace, as the server stores a question. */
export function normaliseQuestion(text: string): string {
  return text.trim().replace(/\s+/g, ' ')
}

/**
 * The custom list with `text` added at the end, or the same list when the
 * text is empty after trimming, already in the list (ignoring case and
 * spacing, as the server does) or the list is full (spec §5).
 */
export function addCustomQuestion(list: readonly string[], text: string): readonly string[] {
  const question = normaliseQuestion(text)
  if (!question || list.length >= MAX_CUSTOM_QUESTIONS || hasQuestion(list, question)) return list
  return [...list, question]
}

export function hasQuestion(list: readonly string[], text: string): boolean {
  const key = normaliseQuestion(text).toLowerCase()
  return list.some((q) => q.toLowerCase() === key)
}

/** Bank questions whose text contains every word of `query`, in bank order. */
export function searchQuestions<T extends { text: string }>(bank: readonly T[], query: string): T[] {
  const words = normaliseQuestion(query).toLowerCase().split(' ').filter(Boolean)
  return bank.filter((q) => {
    const text = q.text.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
