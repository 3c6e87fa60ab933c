const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * When a session was practised (a saved session's createdAt, a progress
 * point's at), written the one way the dashboard, history, progress and
 * summary all write it.
 */
export function sessionTime(iso: string): string {
  return format.format(new Date(iso))
}

/** 125 -> "2:05". */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
