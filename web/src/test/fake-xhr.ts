import { vi } from 'vitest'

export interface FakeResponse {
  /** 0 makes the request fail like a dropped network. */
  status: number
  body?: unknown
  /** Seconds, sent as the Retry-After header. */
  retryAfter?: number
}

/**
 * Replaces XMLHttpRequest with a fake that answers each send() with the next
 * of `responses` (the last one repeats), reporting upload progress first.
 * Returns the requests made.
 */
export function stubXhr(responses: FakeResponse[]) {
  const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = []
  class FakeXhr {
    status = 0
    responseText = ''
    withCredentials = false
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    ontimeout: (() => void) | null = null
    onabort: (() => void) | null = null
    private req = { method: '', url: '', headers: {} as Record<string, string> }
    open(method: string, url: string) {
      this.req.method = method
      this.req.url = url
    }
    setRequestHeader(name: string, value: string) {
      this.req.headers[name] = value
    }
    private retryAfter: number | undefined
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'retry-after' && this.retryAfter !== undefined ? String(this.retryAfter) : null
    }
    abort() {
      this.onabort?.()
    }
    send(body: unknown) {
      const res = responses[Math.min(sent.length, responses.length - 1)]!
      sent.push({ ...this.req, body })
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 2, total: 5 })
        if (res.status === 0) {
          this.onerror?.()
          return
        }
        this.status = res.status
        this.retryAfter = res.retryAfter
        this.responseText = JSON.stringify(res.body ?? {})
        this.onload?.()
      })
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  return sent
}
