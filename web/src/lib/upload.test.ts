import { describe, expect, it, vi } from 'vitest'
import { stubXhr } from '@/test/fake-xhr'
import { ApiError } from './api-client'
import { isRetryable, putBlob, retryDelay } from './upload'

const noWait = () => Promise.resolve()
const blob = new Blob(['answer'], { type: 'audio/webm;codecs=opus' })

describe('upload retry policy', () => {
  it('retries dropped connections, 5xx, 408 and 429 but not other client errors', () => {
    for (const s of [0, 408, 429, 500, 502, 503]) expect(isRetryable(s), String(s)).toBe(true)
    for (const s of [400, 401, 403, 404, 409, 413]) expect(isRetryable(s), String(s)).toBe(false)
  })
  it('backs off exponentially up to 15 s', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000])
  })
})

describe('putBlob', () => {
  it('sends the blob with its MIME type, reports progress and returns the JSON answer', async () => {
    const sent = stubXhr([{ status: 202, body: { item: { id: 'i1' } } }])
    const progress = vi.fn()
    await expect(putBlob('/api/x', blob, blob.type, { onProgress: progress, sleep: noWait })).resolves.toEqual({ item: { id: 'i1' } })
    expect(sent).toMatchObject([{ method: 'PUT', url: '/api/x', headers: { 'Content-Type': 'audio/webm;codecs=opus' }, body: blob }])
    expect(progress).toHaveBeenCalledWith(0.4)
    expect(progress).toHaveBeenLastCalledWith(1)
  })

  it('retries after the network drops and a 503, with backoff', async () => {
    const sent = stubXhr([{ status: 0 }, { status: 503 }, { status: 202, body: { ok: true } }])
    const sleep = vi.fn((_ms: number) => Promise.resolve())
    const onRetry = vi.fn()
    await expect(putBlob('/api/x', blob, blob.type, { sleep, onRetry })).resolves.toEqual({ ok: true })
    expect(sent).toHaveLength(3)
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([1000, 2000])
    expect(onRetry).toHaveBeenCalledTimes(2)
  })

  it('waits as long as a 503 asks, then shows its message', async () => {
    const cannotStore = { title: 'Service Unavailable', status: 503, detail: 'We could not store your answer right now. Please try again.' }
    const sent = stubXhr([{ status: 503, retryAfter: 5, body: cannotStore }])
    const sleep = vi.fn((_ms: number) => Promise.resolve())
    const err = await putBlob('/api/x', blob, blob.type, { sleep, maxAttempts: 3 }).catch((e: unknown) => e)
    expect(sent).toHaveLength(3)
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([5000, 5000])
    expect((err as ApiError).message).toBe(cannotStore.detail)
  })

  it('does not retry a 4xx and throws its problem as ApiError', async () => {
    const sent = stubXhr([{ status: 409, body: { title: 'Conflict', status: 409, detail: 'This question already has an answer.' } }])
    const err = await putBlob('/api/x', blob, blob.type, { sleep: noWait }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).message).toBe('This question already has an answer.')
    expect(sent).toHaveLength(1)
  })

  it('gives up after the last attempt', async () => {
    const sent = stubXhr([{ status: 0 }])
    const err = await putBlob('/api/x', blob, blob.type, { sleep: noWait, maxAttempts: 3 }).catch((e: unknown) => e)
    expect((err as ApiError).status).toBe(0)
    expect(sent).toHaveLength(3)
  })
})
