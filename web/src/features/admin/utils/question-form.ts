import { failures } from '@/api/failures'
import type { components } from '@/api/schema'
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

export type Point = components['schemas']['Point']

/** A point or trap as the editor holds it: its cues as one line, separated by semicolons. */
export interface PointValues {
  text: string
  cues: string
}

/** The editor's state: every field present, tags never null. */
export type QuestionValues = Omit<Required<QuestionInput>, 'mainTags' | 'followUps' | 'points' | 'traps'> & {
  mainTags: string[]
  followUps: string[]
  points: PointValues[]
  traps: PointValues[]
}

export const EMPTY_QUESTION: QuestionValues = {
  scenario: '',
  text: '',
  followUps: [],
  subtag: '',
  tip: '',
  big3: false,
  big3Order: 0,
  mainTags: [],
  points: [],
  traps: [],
}

const CUE_SEPARATOR = ';'

export function pointValues(points: readonly Point[] | undefined): PointValues[] {
  return (points ?? []).map((p) => ({ text: p.text, cues: (p.cues ?? []).join(`${CUE_SEPARATOR} `) }))
}

/** The points as the server takes them: trimmed, cues split at semicolons, empty rows dropped. */
export function toPoints(values: readonly PointValues[]): Point[] {
  return values
    .map((v) => ({
      text: v.text.trim(),
      cues: v.cues
        .split(CUE_SEPARATOR)
        .map((c) => c.trim())
        .filter(Boolean),
    }))
    .filter((p) => p.text !== '' || p.cues.length > 0)
}

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
    points: pointValues(q.points),
    traps: pointValues(q.traps),
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
    points: toPoints(v.points),
    traps: toPoints(v.traps),
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
