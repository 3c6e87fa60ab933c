import { limits } from '@/api/limits'

/**
 * Route logic for profession-scoped paths. No UI here.
 *
 * The slugs are the routing contract from the spec's route table, taken from
 * the generated contract (the profession enumeration a session is created
 * with) so that redirect decisions are synchronous (no flash of a wrong page
 * while GET /api/professions loads). Everything a profession *shows* (names,
 * hero copy, tips) comes from the API.
 */
export const PROFESSION_SLUGS = limits.createPracticeSession.body.profession.enum

export type ProfessionSlug = (typeof PROFESSION_SLUGS)[number]

export const DEFAULT_PROFESSION: ProfessionSlug = 'dental'

export const LAST_PROFESSION_KEY = 'lastProfession'

/** Lower-cases a slug and returns it when it is a known profession, else null. */
export function normaliseSlug(raw: string | null | undefined): ProfessionSlug | null {
  if (!raw) return null
  const lower = raw.trim().toLowerCase()
  return (PROFESSION_SLUGS as readonly string[]).includes(lower) ? (lower as ProfessionSlug) : null
}

function segments(pathname: string): string[] {
  return pathname.split('/').filter(Boolean)
}

/** The known profession named by the first path segment (any case), or null. */
export function professionFromPath(pathname: string): ProfessionSlug | null {
  const first = segments(pathname)[0]
  return first ? normaliseSlug(safeDecode(first)) : null
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/**
 * The path to show after choosing `slug` in the profession switcher: the first
 * segment is swapped and the rest kept (`/dental/resources/ethics` ->
 * `/medical/resources/ethics`). On a path that is not profession-scoped
 * (`/login`) it goes to the profession's home.
 */
export function swapProfession(pathname: string, slug: ProfessionSlug): string {
  const parts = segments(pathname)
  if (parts.length === 0 || !professionFromPath(pathname)) return `/${slug}`
  parts[0] = slug
  const trailing = pathname.endsWith('/') && parts.length > 1 ? '/' : ''
  return `/${parts.join('/')}${trailing}`
}

export type ProfessionRouteDecision =
  | { kind: 'render'; slug: ProfessionSlug }
  | { kind: 'redirect'; to: string }

/**
 * What the profession layout does with the `:profession` segment of
 * `pathname`: render a known lower-case slug, redirect a known slug in another
 * case to its canonical lower-case path (keeping the rest), and send an
 * unknown profession to `/`.
 */
export function decideProfessionRoute(param: string | undefined, pathname: string): ProfessionRouteDecision {
  const slug = normaliseSlug(param)
  if (!slug) return { kind: 'redirect', to: '/' }
  if (param !== slug) {
    const parts = segments(pathname)
    parts[0] = slug
    return { kind: 'redirect', to: `/${parts.join('/')}` }
  }
  return { kind: 'render', slug }
}

/** Pages whose path ends in /session, /summary or /setup hide the header. */
export function isHeaderHidden(pathname: string): boolean {
  return /\/(session|summary|setup)\/?$/i.test(pathname)
}

/** The footer shows only on the exact profession home, e.g. `/dental`. */
export function isProfessionHome(pathname: string): boolean {
  const parts = segments(pathname)
  return parts.length === 1 && professionFromPath(pathname) !== null
}

interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

function storage(): StorageLike | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null
  } catch {
    return null // storage disabled (privacy mode, sandboxed iframe)
  }
}

/**
 * Whether visiting `pathname` makes its profession the last one used: a
 * profession's public pages (choosing it) and its setup and session
 * (practising it) do; the account's pages (dashboard, history, progress, a
 * summary, admin, checkout) carry a profession in their path but are about
 * every profession's practice, so opening them leaves the choice alone, and
 * the dashboard's Start keeps going to the profession last used.
 */
export function remembersProfession(pathname: string): boolean {
  const rest = segments(pathname).slice(1)
  return !['dashboard', 'history', 'progress', 'summary', 'admin', 'checkout'].includes(rest[0]?.toLowerCase() ?? '')
}

/** The last profession the user chose, remembered in local storage; dental by default. */
export function getLastProfession(store: StorageLike | null = storage()): ProfessionSlug {
  try {
    return normaliseSlug(store?.getItem(LAST_PROFESSION_KEY)) ?? DEFAULT_PROFESSION
  } catch {
    return DEFAULT_PROFESSION
  }
}

export function setLastProfession(slug: ProfessionSlug, store: StorageLike | null = storage()): void {
  try {
    store?.setItem(LAST_PROFESSION_KEY, slug)
  } catch {
    // Quota or privacy mode: remembering is a convenience only.
  }
}

/** `/dashboard`, `/admin`, ... resolve to the last profession's page. */
export function professionPath(slug: ProfessionSlug, rest = ''): string {
  const tail = rest.replace(/^\/+/, '')
  return tail ? `/${slug}/${tail}` : `/${slug}`
}

/**
 * Where to go after a successful login: admins to /admin, everyone else back
 * to the page they asked for (`from`) or the dashboard. `from` must be a
 * same-origin path; anything else is ignored.
 */
export function loginDestination(role: string, from: string | null | undefined): string {
  if (role === 'admin') return '/admin'
  if (from && isSafeInternalPath(from) && !/^\/(login|signup)(\/|$|\?)/.test(from)) return from
  return '/dashboard'
}

export function isSafeInternalPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')
}
