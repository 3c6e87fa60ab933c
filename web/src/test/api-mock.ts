import { vi } from 'vitest'
import { PROFESSION_SLUGS } from '@/lib/professions'

export type Handler = (req: Request) => Response | Promise<Response>

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  })
}

export function problem(status: number, detail: string, title = 'Error'): Response {
  return json(status, { title, status, detail })
}

/** A promise whose resolution the test controls, to observe pending states. */
export function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * Replaces fetch with a router keyed by "METHOD /path". Unmatched requests
 * fail the test loudly with a 599. Calls keep JSON bodies parsed, others
 * (a recording's bytes) as text.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = []
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input))
    const url = new URL(req.url)
    const key = `${req.method} ${url.pathname}`
    const text = req.method === 'GET' ? '' : await req.clone().text()
    const isJson = req.headers.get('Content-Type')?.includes('json')
    calls.push({ key, body: text && isJson ? JSON.parse(text) : text || undefined })
    const handler = handlers[key] ?? defaults[key]
    if (!handler) return json(599, { title: `unmocked ${key}` })
    return handler(req)
  })
  vi.stubGlobal('fetch', fn)
  return { fn, calls }
}

/** The operator's facts as a server with the default configuration gives them. */
export const siteFactsBody = {
  company: 'Whitecoat',
  supportEmail: 'support@whitecoat.app',
  contactEmail: 'hello@whitecoat.app',
  privacyEmail: 'privacy@whitecoat.app',
  governingLaw: 'the laws of the place where the operator is established',
  siteUrl: 'http://localhost:8080',
  effectiveDate: 'September 7, 2025',
  trialDays: 7,
  freeSessions: 2,
  passPrice: '$29.00',
  passPriceShort: '$29',
  passDays: 365,
  refundDays: 7,
  minimumAge: 13,
  answerMinutes: 3,
  speechProvider: '',
  feedbackProvider: '',
  signInIdleDays: 3,
  signInMaxDays: 30,
  deviceCookieDays: 180,
  recordingHours: 1,
}

/** Answers every test gets unless it mocks the endpoint itself. */
const defaults: Record<string, Handler> = {
  'GET /api/site': () => json(200, siteFactsBody),
  // How the student is heard: the default until they choose.
  'GET /api/practice/preferences': () => json(200, { preferences: { hearing: 'server', captions: true } }),
  // The summary's session in tests: no question answered before.
  'GET /api/practice/sessions/s1/earlier-attempts': () => json(200, { locked: false, items: [] }),
}

export const professionsBody = {
  defaultSlug: 'dental',
  defaultHeroTitle: 'Ace your healthcare school interviews.',
  professions: PROFESSION_SLUGS.map((slug) => ({
    slug,
    displayName: slug === 'dental' ? 'Dental' : slug === 'medical' ? 'Medical' : slug.toUpperCase(),
    heroTitle: slug === 'dental' ? 'Nail Your Dental School Interviews.' : `Nail Your ${slug} School Interviews.`,
    heroSubtitle: 'Practice out loud and get feedback after every answer.',
    defaultQuestion: 'Why?',
    tipsIntro: '',
    tips: [],
    questionTags: [slug],
    interviewFormats: '',
  })),
}

export function user(overrides: Record<string, unknown> = {}) {
  return {
    id: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    createdAt: '2025-09-01T00:00:00Z',
    trialExpiresAt: '2025-09-08T00:00:00Z',
    promoCodeUsed: null,
    emailVerified: true,
    role: 'user',
    usageCount: 0,
    ...overrides,
  }
}

/** GET /api/dashboard for an active free trial with nothing practised yet. */
export function dashboardBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Ada Lovelace',
    emailVerified: true,
    access: {
      status: 'free_trial_active',
      badge: 'Free Trial',
      headerText: 'Continue your interview preparation journey',
      banner: 'Free trial: 7 days left and 2 free sessions remaining.',
      daysLeft: 7,
      freeSessionsRemaining: 2,
      practiceEnabled: true,
      historyLocked: false,
      subscriptionEndsAt: null,
    },
    stats: { sessionsCompleted: 0, questionsPracticed: 0, averageScore: 0 },
    recentSessions: [],
    ...overrides,
  }
}
