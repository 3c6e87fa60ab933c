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
