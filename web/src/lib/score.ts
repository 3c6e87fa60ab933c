import type { components } from '@/api/schema'

/** Badge variants for scores (spec §9), shared by the summary and the dashboard. */
export type ScoreVariant = 'default' | 'secondary' | 'destructive'

/** 80 or more default, 70-79 secondary, under 70 destructive. */
export function scoreVariant(score: number): ScoreVariant {
  if (score >= 80) return 'default'
  if (score >= 70) return 'secondary'
  return 'destructive'
}

/** The dashboard's session badge only marks 80 or more as default. */
export function dashboardScoreVariant(score: number): ScoreVariant {
  return score >= 80 ? 'default' : 'secondary'
}

/** A section of the feedback's scores. */
export type SectionKey = keyof components['schemas']['SectionScores']

/** Each section's name, in the order the breakdown shows them: what was said, how it was built, how it came across. */
export const SECTION_LABEL: Record<SectionKey, string> = {
  content: 'Content',
  clarityStructure: 'Clarity & structure',
  overallImpression: 'Overall impression',
}
