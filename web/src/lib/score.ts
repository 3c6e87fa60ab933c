import type { components } from '@/api/schema'

/** Badge variants for scores (spec §9). */
export type ScoreVariant = 'default' | 'secondary' | 'destructive'

/**
 * The one band of every score badge (summary, dashboard, history,
 * progress): 80 or more default, 70-79 secondary, under 70 destructive.
 * A score is banded as the whole percent it is shown as, so 79.6 (shown
 * as 80 %) is default.
 */
export function scoreVariant(score: number): ScoreVariant {
  const shown = Math.round(score)
  if (shown >= 80) return 'default'
  if (shown >= 70) return 'secondary'
  return 'destructive'
}

/** A section of the feedback's scores. */
export type SectionKey = keyof components['schemas']['SectionScores']

/** Each section's name, in the order the breakdown shows them: what was said, how it was built, how it came across. */
export const SECTION_LABEL: Record<SectionKey, string> = {
  content: 'Content',
  clarityStructure: 'Clarity & structure',
  overallImpression: 'Overall impression',
}
