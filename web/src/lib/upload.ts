import { ApiError, type Problem } from '@/lib/api-client'

export interface RetryOptions {
  /** Called before each automatic retry, with the failed attempt's error. */
  onRetry?: (err: ApiError, attempt: number) => void
  signal?: AbortSignal
  /** Attempts in all, the first included. */
  maxAttempts?: number
  /** Waits between attempts; tests replace it to run without real delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

export interface UploadOptions extends RetryOptions {
  /** Called with 0..1 as the body goes out (and again from 0 on a retry). */
  onProgress?: (fraction: number) => void
}

export const UPLOAD_MAX_ATTEMPTS = 5

/**
 * Whether a failed upload may succeed if sent again: the request never got
 * an answer (status 0: the network dropped), the server was overloaded or
 * broken (5xx), or asked us to slow down (408, 429). Other 4xx answers are
 * about the request itself and will not change.
 */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500
}

/** Exponential backoff: 1 s, 2 s, 4 s, ... capped at 15 s (attempt is 1-based). */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** (attempt - 1), 15_000)
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      fail(new DOMException('Aborted', 'AbortError'))
    })
  })
}

function parseProblem(text: string): Problem {
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object') return parsed as Problem
  } catch {
    // Not JSON (a proxy's HTML error page): keep the status only.
  }
  return {}
}

/** One PUT with XMLHttpRequest, because fetch cannot report upload progress. */
function putOnce<T>(path: string, body: Blob, contentType: string, opts: UploadOptions): Promise<T> {
  return new Promise((done, fail) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', path)
    xhr.setRequestHeader('Content-Type', contentType)
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json')
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1)
        done(JSON.parse(xhr.responseText) as T)
        return
      }
      const retry = Number(xhr.getResponseHeader('Retry-After'))
      fail(new ApiError(xhr.status, parseProblem(xhr.responseText), Number.isFinite(retry) && retry > 0 ? retry : undefined))
    }
    xhr.onerror = () => fail(new ApiError(0, {}))
    xhr.ontimeout = () => fail(new ApiError(0, {}))
    xhr.onabort = () => fail(new DOMException('Aborted', 'AbortError'))
    opts.signal?.addEventListener('abort', () => xhr.abort())
    xhr.send(body)
  })
}

/**
 * withRetries runs `attempt` until it succeeds, retrying with backoff while
 * its ApiError is one a retry can fix (see isRetryable) and attempts are
 * left; any other failure is thrown as it is.
 */
export async function withRetries<T>(attempt: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? UPLOAD_MAX_ATTEMPTS
  const sleep = opts.sleep ?? wait
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (err) {
      if (!(err instanceof ApiError) || !isRetryable(err.status) || n >= maxAttempts) throw err
      opts.onRetry?.(err, n)
      await sleep(err.retryAfter ? err.retryAfter * 1000 : retryDelay(n), opts.signal)
    }
  }
}

/**
 * putBlob uploads `body` to an API path with progress, retrying with backoff
 * while the failure is one a retry can fix. It resolves with the JSON answer
 * and rejects with ApiError like every other fetcher.
 */
export function putBlob<T>(path: string, body: Blob, contentType: string, opts: UploadOptions = {}): Promise<T> {
  return withRetries(() => {
    opts.onProgress?.(0)
    return putOnce<T>(path, body, contentType, opts)
  }, opts)
}
