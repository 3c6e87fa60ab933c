import { failures } from '@/api/failures'
import { ApiError } from '@/lib/api-client'
import type { QuestionInput } from '../api/create-question'
import type { Question } from '../api/list-questions'

// The spec's text (§5) for a failed add; its words for an incomplete
// question come from the server's contract (failures.incompleteNewQuestion, failures.incompleteQuestionEdit).
export const FAILED_TO_ADD = 'Failed to add question.'

/**
 * The subtags of spec §3, in display order. The API document does not list
 * them (the field is a free string the server validates), so the picker
 * needs its own list.
 */
export const SUBTAGS = ['Ethical', 'Behavioral', 'Teamwork', 'Leadership', 'Communication'] as const

export const BIG3_ORDERS = [1, 2, 3] as const

/** The editor's state: every field present, tags never null. */
export type QuestionValues = Omit<Required<QuestionInput>, 'mainTags' | 'followUps'> & { mainTags: string[]; followUps: string[] }

export const EMPTY_QUESTION: QuestionValues = { scenario: '', text: '', followUps: [], subtag: '', tip: '', big3: false, big3Order: 0, mainTags: [] }

export function valuesFromQuestion(q: Question): QuestionValues {
  return {
    scenario: q.scenario,
    text: q.text,
    followUps: q.followUps ?? [],
    subtag: q.subtag,
    tip: q.tip,
    big3: q.big3,
    big3Order: q.big3Order,
    mainTags: q.mainTags,
  }
}

/** A station's follow-up prompts, one per line in the editor. */
export function followUpLines(text: string): string[] {
  return text.split('\n')
}

/** Spec §5: a question needs text and at least one main tag; subtag and tip are optional. */
export function isComplete(v: QuestionValues): boolean {
  return v.text.trim() !== '' && v.mainTags.length > 0
}

/** The request body: trimmed text, and an order only for Big 3 questions (the server rejects others). */
export function toQuestionInput(v: QuestionValues): QuestionInput {
  const scenario = v.scenario.trim()
  return {
    scenario,
    text: v.text.trim(),
    // Only a station has follow-ups (the server refuses them elsewhere); blank lines are dropped.
    followUps: scenario ? v.followUps.map((f) => f.trim()).filter(Boolean) : [],
    subtag: v.subtag,
    tip: v.tip.trim(),
    big3: v.big3 && !scenario,
    big3Order: v.big3 && !scenario ? v.big3Order : 0,
    mainTags: v.mainTags,
  }
}

/**
 * The message for a failed add: the spec's "Please complete all fields." when
 * the server's problem type says the question is incomplete, else its "Failed to add question.".
 */
export function addFailureMessage(err: unknown): string {
  const incomplete = failures.incompleteNewQuestion
  return err instanceof ApiError && err.problem.type === incomplete.type ? incomplete.message : FAILED_TO_ADD
}
