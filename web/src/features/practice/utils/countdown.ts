/**
 * Seconds left at which a timer is spoken to screen readers (WCAG 2.2.1:
 * the milestones, and "time is up", which whoever ends the timer says). The
 * visible clock updates every second; a live countdown read every second
 * would drown out the question.
 */
export const ANNOUNCE_AT_SECONDS = [60, 30] as const

/** When the visible clock turns to its warning. */
export const WARN_AT_SECONDS = 30

/**
 * What a screen reader hears when `remaining` seconds are left of `limit`,
 * or null for silence. Nothing is said at the very start (a 60-second limit
 * starts at 60, which the phase's own announcement already covers).
 */
export function countdownAnnouncement(remaining: number, limit: number): string | null {
  if (remaining >= limit || !(ANNOUNCE_AT_SECONDS as readonly number[]).includes(remaining)) return null
  return remaining === 60 ? '1 minute left' : `${remaining} seconds left`
}

/**
 * When each of `count` follow-up prompts appears during an answer of
 * `limit` seconds: spread evenly, the last well before the end, so there is
 * time to answer it. Untimed answers (limit 0) reveal them on request only.
 */
export function followUpTimes(count: number, limit: number): number[] {
  if (limit <= 0) return []
  return Array.from({ length: count }, (_, i) => Math.round((limit * (i + 1)) / (count + 1)))
}
