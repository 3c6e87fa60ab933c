const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * When a session was practised (a saved session's createdAt, a progress
 * point's at), written the one way the dashboard, history, progress and
 * summary all write it.
 */
export function sessionTime(iso: string): string {
  return format.format(new Date(iso))
}
