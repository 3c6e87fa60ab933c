import { dashboardBody, json, professionsBody, user } from '@/test/api-mock'

// What the practice screens' tests share: a session and its items as the
// API gives them, feedback, the formats and the answers every page asks for.

export const HEAVY_USAGE =
  "We've noticed unusually heavy usage on your account. To ensure fair access for all users, we've temporarily paused usage. If you believe this is a mistake, please contact support."

export function item(position: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `i${position}`,
    position,
    kind: 'spoken',
    scenario: '',
    question: `Question ${position}?`,
    followUps: [],
    prepSeconds: 0,
    answerSeconds: 180,
    autoStart: false,
    tip: `Tip ${position}`,
    subtag: '',
    big3Order: 0,
    status: 'pending',
    transcript: null,
    metrics: null,
    feedback: null,
    meaningful: null,
    error: '',
    canRetry: false,
    ...overrides,
  }
}

export function session(overrides: Record<string, unknown> = {}) {
  return {
    id: 's1',
    profession: 'dental',
    mode: 'audio',
    interviewType: 'random',
    format: 'traditional',
    extension: '1',
    big3: true,
    questionCount: 2,
    status: 'active',
    createdAt: new Date().toISOString(),
    completedAt: null,
    totalSessionTime: 0,
    answerLimitSeconds: 180,
    averageScore: null,
    improvement: null,
    processing: false,
    items: [item(1), item(2)],
    ...overrides,
  }
}

export function feedback(score: number, overrides: Record<string, unknown> = {}) {
  return {
    overallScore: score,
    sectionScores: { overallImpression: score, clarityStructure: score - 5, content: score + 5 },
    summary: `Summary for ${score}.`,
    suggestions: [`Suggestion for ${score}.`],
    rubricVersion: 'v1',
    engine: 'rubric',
    evidence: [],
    fallback: false,
    ...overrides,
  }
}

export const presets = [
  { format: 'traditional', timings: { prepSeconds: 0, answerSeconds: 180 }, count: 5 },
  { format: 'mmi', timings: { prepSeconds: 120, answerSeconds: 420 }, count: 6 },
  { format: 'kira', timings: { prepSeconds: 45, answerSeconds: 90 }, count: 5 },
  { format: 'casper', timings: { prepSeconds: 30, answerSeconds: 60, typedSeconds: 210 }, count: 2 },
]

export const base = {
  'GET /api/auth/me': () => json(200, { user: user() }),
  'GET /api/professions': () => json(200, professionsBody),
  'GET /api/practice/formats': () => json(200, { presets, speech: { engine: 'service', alignsBrowserText: false } }),
  'GET /api/dashboard': () => json(200, dashboardBody()),
}
