/** The save dialog's default title, in the user's locale (spec §5). */
export function defaultSessionTitle(now: Date, locale?: string): string {
  return `Session ${now.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`
}
