import type { QueryParams, ResponseBody } from '@/lib/api-types'

type SitePageKey = ResponseBody<'/api/site/pages/{profession}/{page}', 'get'>['key']

const auth = ['auth'] as const
const progress = ['progress'] as const
const history = ['history'] as const
const practice = ['practice'] as const
const practiceSession = [...practice, 'session'] as const
const savedSessions = [...practice, 'saved'] as const
const adminQuestions = ['admin', 'questions'] as const
const adminUsers = ['admin', 'users'] as const
const shares = ['shares'] as const

/**
 * Every TanStack Query key the app uses, declared once (the lint rejects a
 * key written anywhere else). One feature reads data under a key and
 * another may change that data and have it fetched again; features never
 * import each other, so the keys live here. A key with parameters extends
 * its family's `all` (`history.list(query)` starts with `history.all`), so
 * invalidating `all` refetches every variant of it.
 */
export const queryKeys = {
  auth: {
    /** Kept when a user signs out: the next sign-in needs its settings. */
    all: auth,
    me: [...auth, 'me'] as const,
    firebaseConfig: [...auth, 'firebase-config'] as const,
  },
  /** The same for every user, so kept when one signs in or out. */
  professions: ['professions'] as const,
  siteFacts: ['site-facts'] as const,
  exampleAnswer: (profession: string) => ['example-answer', profession] as const,
  tryout: {
    limits: ['tryout', 'limits'] as const,
    try: (token: string) => ['tryout', 'try', token] as const,
  },
  sitePage: (profession: string, page: SitePageKey) => ['site-page', profession, page] as const,
  paymentsMode: ['payments-mode'] as const,
  questionBank: ['questions', 'bank'] as const,
  dashboard: ['dashboard'] as const,
  progress: {
    all: progress,
    of: (query: QueryParams<'/api/practice/progress', 'get'>) => [...progress, query] as const,
  },
  history: {
    all: history,
    list: (query: QueryParams<'/api/practice/history', 'get'>) => [...history, query] as const,
  },
  practice: {
    formats: [...practice, 'formats'] as const,
    /** How the student chose to be heard, and live captions. */
    preferences: [...practice, 'preferences'] as const,
    session: (id: string) => [...practiceSession, id] as const,
    earlierAttempts: (sessionId: string) => [...practiceSession, sessionId, 'earlier-attempts'] as const,
    saved: {
      all: savedSessions,
      detail: (id: string) => [...savedSessions, id] as const,
    },
  },
  share: {
    all: shares,
    /** One saved session's links, or (no id) every link the student made. */
    links: (savedSessionId?: string) => [...shares, 'links', savedSessionId ?? 'every'] as const,
    comments: (savedSessionId: string) => [...shares, 'comments', savedSessionId] as const,
    /** A reviewer's view of one link: no account, so kept apart from the signed-in keys. */
    review: (token: string) => ['review', token] as const,
  },
  admin: {
    reportedComments: ['admin', 'reported-comments'] as const,
    questions: {
      all: adminQuestions,
      /** Every page of the list, whatever its filter. */
      lists: [...adminQuestions, 'list'] as const,
      list: (query: QueryParams<'/api/admin/questions', 'get'>) => [...adminQuestions, 'list', query] as const,
      detail: (id: string) => [...adminQuestions, 'detail', id] as const,
    },
    users: {
      all: adminUsers,
      list: (query: QueryParams<'/api/admin/users', 'get'>) => [...adminUsers, query] as const,
    },
    payments: (userId: string) => ['admin', 'payments', userId] as const,
  },
}
