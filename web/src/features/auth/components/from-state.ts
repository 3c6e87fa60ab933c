/**
 * Reads the `from` navigation state that protected routes set when they send
 * a signed-out visitor to /login. Accepts a path string or a Location-like
 * object; anything else yields null.
 */
export function readFrom(state: unknown): string | null {
  if (!state || typeof state !== 'object' || !('from' in state)) return null
  const from = (state as { from: unknown }).from
  if (typeof from === 'string') return from
  if (from && typeof from === 'object' && 'pathname' in from) {
    const loc = from as { pathname?: unknown; search?: unknown; hash?: unknown }
    if (typeof loc.pathname !== 'string') return null
    return `${loc.pathname}${typeof loc.search === 'string' ? loc.search : ''}${typeof loc.hash === 'string' ? loc.hash : ''}`
  }
  return null
}
