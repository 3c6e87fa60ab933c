// Made on first use, not when the module loads: making it takes a phone
// some 20 ms, and the public pages load this module without writing a date.
let format: Intl.DateTimeFormat | undefined

/**
 * When a session was practised (a saved session's createdAt, a progress
 * point's at), written the one way the dashboard, history, progress and
 * summary all write it.
 */
export function sessionTime(iso: string): string {
  format ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return format.format(new Date(iso))
}

/** 125 -> "2:05". */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
