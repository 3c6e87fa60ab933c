import createClient from 'openapi-fetch'
import { failures } from '@/api/failures'
import type { paths } from '@/api/schema'

/** One field-level problem from an RFC 9457 problem document (Huma's ErrorDetail). */
export interface ProblemError {
  message?: string
  location?: string
}

/** The subset of an RFC 9457 problem document we read. */
export interface Problem {
  /** The failure's problem type URI, for the failures the server tells apart (src/api/failures.ts). */
  type?: string
  title?: string
  status?: number
  detail?: string
  errors?: ProblemError[] | null
}

export const NETWORK_ERROR_MESSAGE = 'Network error. Check your connection and try again.'

/**
 * ApiError is thrown by every fetcher when the server answers with a non-2xx
 * status (or the request never reached it). `message` is the text to show the
 * user verbatim: the problem's `detail`, else its first error's message, else
 * its title.
 */
export class ApiError extends Error {
  readonly status: number
  readonly problem: Problem
  /** Seconds from a Retry-After header (429), when present. */
  readonly retryAfter?: number

  constructor(status: number, problem: Problem, retryAfter?: number) {
    super(problemMessage(status, problem))
    this.name = 'ApiError'
    this.status = status
    this.problem = problem
    this.retryAfter = retryAfter
  }
}

export function problemMessage(status: number, problem: Problem): string {
  const detail = problem.detail?.trim()
  if (detail) return detail
  const first = problem.errors?.find((e) => e.message?.trim())?.message?.trim()
  if (first) return first
  const title = problem.title?.trim()
  if (title) return title
  if (status === 0) return NETWORK_ERROR_MESSAGE
  return `Request failed (${status}).`
}

function asProblem(value: unknown): Problem {
  if (value && typeof value === 'object') return value as Problem
  if (typeof value === 'string' && value.trim()) return { detail: value.trim() }
  return {}
}

/** The typed client for the Whitecoat API. Same origin, cookies sent automatically. */
export const api = createClient<paths>({
  // An absolute base: Request() needs one outside the browser (tests).
  baseUrl: typeof window !== 'undefined' ? window.location.origin : '',
  // Looked up per call so tests can stub globalThis.fetch.
  fetch: (input) => globalThis.fetch(input),
  credentials: 'same-origin',
  headers: { Accept: 'application/json, application/problem+json' },
})

type UnauthorizedHandler = (path: string) => void
let onUnauthorized: UnauthorizedHandler | null = null

/**
 * Registers what to do when the server says the session is gone (401) on a
 * request other than the sign-in endpoints: the app marks the user signed
 * out so protected pages send them to /login.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null) {
  onUnauthorized = handler
}

const SIGN_IN_PATHS = ['/api/auth/me', '/api/auth/login', '/api/auth/signup', '/api/auth/logout']

api.use({
  onResponse({ response, schemaPath }) {
    if (response.status === 401 && !SIGN_IN_PATHS.includes(schemaPath)) onUnauthorized?.(schemaPath)
    return undefined
  },
})

interface FetchResult<T> {
  data?: T
  error?: unknown
  response: Response
}

/**
 * unwrap turns an openapi-fetch result into its data or throws ApiError.
 * Network failures (fetch rejecting) become ApiError with status 0.
 */
export async function unwrap<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>
  try {
    result = await request
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, {})
  }
  const { data, error, response } = result
  if (!response.ok || error !== undefined) {
    const retry = Number(response.headers.get('Retry-After'))
    throw new ApiError(response.status, asProblem(error), Number.isFinite(retry) && retry > 0 ? retry : undefined)
  }
  return data as T
}

/** Text for an unknown thrown value: ApiError's message, or a generic fallback. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message
  if (err instanceof Error && err.message) return err.message
  // The spec's words for a failure it says nothing more about (§8, the checkout's).
  return failures.checkoutFailed.message
}
