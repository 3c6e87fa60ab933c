import { schemaLimits } from '@/api/limits'
import type { Competency } from '@/lib/competencies'
import { scoreVariant, SECTION_LABEL, type SectionKey } from '@/lib/score'
import type { Answer } from './answer'

export type Feedback = NonNullable<Answer['feedback']>
export type Evidence = Feedback['evidence'][number]
export type RedFlag = Feedback['redFlags'][number]

/** The top of a criterion's scale (levels 1..MAX_LEVEL), from the contract. */
export const MAX_LEVEL = schemaLimits.Evidence.level.maximum

const COMPETENCY_ORDER: readonly string[] = schemaLimits.Feedback.competencies.items.enum

/** The answer's competencies in the contract's order (the order the server lists them), each once. */
export function competencies(feedback: Feedback): Competency[] {
  const shown = new Set(feedback.competencies ?? [])
  return [...shown].sort((a, b) => COMPETENCY_ORDER.indexOf(a) - COMPETENCY_ORDER.indexOf(b))
}

/** The answer's red flags; feedback before rubric v3 raised none. */
export function redFlags(feedback: Feedback): RedFlag[] {
  return feedback.redFlags ?? []
}

/** "overriding the patient's decision" → "Overriding the patient's decision". */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** One section of "How this was scored". */
export interface SectionBreakdown {
  key: SectionKey
  label: string
  score: number
  /** The scored criteria, each with its level (1..MAX_LEVEL) and the anchor matched at it. */
  criteria: Evidence[]
  /** The question's own points (issue 40): each made (with the words that made it) or not. */
  points: Evidence[]
  /** Supporting observations (no level): what the engine looked for and whether it found it, or why it could not tell. */
  observations: Evidence[]
  /**
   * Why the section was not judged (too much of the answer may have been
   * misheard), in the server's words; its score then stands for nothing,
   * and its criteria are in notJudged.
   */
  unjudgedNote: string | null
  notJudged: Evidence[]
  /** Open by default: the section scored low, or the answer raised a red flag. */
  open: boolean
}

/** A scored criterion carries a level; a supporting observation (and all feedback before v3) has none. */
export function isScored(e: Evidence): boolean {
  return (e.level ?? 0) > 0
}

/**
 * The breakdown of each section's score into its criteria, or null for
 * feedback that has no scored criteria (rubric v1/v2, or an engine that gave
 * none): that feedback is shown as it always was.
 */
export function scoringBreakdown(feedback: Feedback): SectionBreakdown[] | null {
  const evidence = feedback.evidence ?? []
  if (!evidence.some(isScored)) return null
  const flagged = redFlags(feedback).length > 0
  return (Object.keys(SECTION_LABEL) as SectionKey[]).map((key) => {
    const score = feedback.sectionScores[key]
    const mine = evidence.filter((e) => e.section === key)
    const notJudged = mine.filter((e) => e.unjudged === 'too-uncertain')
    const unjudgedNote = key === 'content' && feedback.contentUnjudged ? (notJudged[0]?.note ?? null) : null
    return {
      key,
      label: SECTION_LABEL[key],
      score,
      criteria: mine.filter(isScored),
      points: mine.filter((e) => e.point && e.unjudged !== 'too-uncertain'),
      observations: mine.filter((e) => !isScored(e) && !e.point && e.unjudged !== 'too-uncertain'),
      unjudgedNote,
      notJudged,
      open: flagged || unjudgedNote !== null || scoreVariant(score) === 'destructive',
    }
  })
}
