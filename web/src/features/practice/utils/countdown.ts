/** Seconds left at which the countdown is spoken to screen readers; the visible clock updates every second. */
export const ANNOUNCE_AT_SECONDS = [60, 30, 10] as const

/** 125 -> "2:05". */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * What a screen reader hears when `remaining` seconds are left of `limit`,
 * or null for silence: a live countdown read every second would drown out
 * the question. Nothing is said at the very start (a 60-second limit starts
 * at 60, which "Recording started" already covers).
 */
export function countdownAnnouncement(remaining: number, limit: number): string | null {
  if (remaining >= limit || !(ANNOUNCE_AT_SECONDS as readonly number[]).includes(remaining)) return null
  return remaining === 60 ? '1 minute remaining' : `${remaining} seconds remaining`
}
