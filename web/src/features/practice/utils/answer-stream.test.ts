import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { deferred, json, mockApi, problem } from '@/test/api-mock'
import { stubXhr } from '@/test/fake-xhr'
import { streamAnswer } from './answer-stream'

const TYPE = 'audio/webm;codecs=opus'
const PIECE = 'PATCH /api/practice/sessions/s1/items/i1/audio'
const FINISH = 'POST /api/practice/sessions/s1/items/i1/audio/finish'
const piece = (text: string) => new Blob([text], { type: TYPE })

/**
 * The server's side of the pieces at the network boundary: it keeps the
 * bytes it was sent and answers like the real one (a piece sent again is
 * accepted; one past the end is a 409). `refuse` answers the nth piece
 * request (0-based) instead, without keeping it; `lose` keeps it but its
 * answer never comes back.
 */
function fakeServer({ refuse, lose }: { refuse?: (n: number) => Response | Promise<undefined> | undefined; lose?: (n: number) => boolean } = {}) {
  let have = ''
  const pieces: { offset: number; body: string; type: string | null }[] = []
  const heard: (string | null)[] = []
  let inFlight = 0
  let maxInFlight = 0
  const { calls } = mockApi({
    [PIECE]: async (req) => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      try {
        const offset = Number(new URL(req.url).searchParams.get('offset'))
        const body = await req.text()
        const n = pieces.push({ offset, body, type: req.headers.get('Content-Type') }) - 1
        heard.push(req.headers.get('Heard-So-Far'))
        const refused = await refuse?.(n)
        if (refused) return refused
        if (offset > have.length) return problem(409, 'A piece of the recording is missing.')
        have = have.slice(0, offset) + body
        if (lose?.(n)) throw new TypeError('Failed to fetch')
        return json(200, { received: have.length })
      } finally {
        inFlight--
      }
    },
    [FINISH]: async (req) => {
      const { size } = (await req.json()) as { size: number }
      return size === have.length ? json(202, { item: { id: 'i1', status: 'queued' } }) : problem(409, 'Part of the recording did not arrive.')
    },
  })
  return { pieces, heard, calls, have: () => have, maxInFlight: () => maxInFlight }
}

function stream(onRefused = vi.fn()) {
  const sleep = vi.fn((_ms: number) => Promise.resolve())
  return { s: streamAnswer('s1', 'i1', { onRefused, sleep }), sleep, onRefused }
}

describe('streamAnswer', () => {
  it('sends what the browser has heard so far with each piece, percent-encoded, and nothing before it heard anything', async () => {
    const server = fakeServer()
    stubXhr([{ status: 500 }])
    const said = ['', 'I’m sure', 'I’m sure the café']
    let spoken = 0
    const s = streamAnswer('s1', 'i1', { onRefused: vi.fn(), sleep: () => Promise.resolve(), heardSoFar: () => said[spoken++]! })
    for (const p of ['a', 'b', 'c']) {
      s.push(piece(p))
      await vi.waitFor(() => expect(server.pieces).toHaveLength(spoken))
    }
    await s.finish(piece('abc'))
    expect(server.heard).toEqual([null, 'I%E2%80%99m%20sure', 'I%E2%80%99m%20sure%20the%20caf%C3%A9'])
    expect(server.heard.map((h) => (h ? decodeURIComponent(h) : ''))).toEqual(said)
  })

  it('sends pieces in order one at a time, those that queued up together, then finishes with the size', async () => {
    const held = deferred<undefined>()
    const server = fakeServer({ refuse: (n) => (n === 0 ? held.promise : undefined) })
    const xhr = stubXhr([{ status: 500 }])
    const { s } = stream()
    s.push(piece('one-'))
    await vi.waitFor(() => expect(server.pieces).toHaveLength(1))
    s.push(piece('two-'))
    s.push(piece('three'))
    held.resolve(undefined)
    const progress = vi.fn()
    await s.finish(piece('one-two-three'), { onProgress: progress })
    expect(server.pieces).toEqual([
      { offset: 0, body: 'one-', type: TYPE },
      { offset: 4, body: 'two-three', type: TYPE },
    ])
    expect(server.maxInFlight()).toBe(1)
    expect(server.calls.find((c) => c.key === FINISH)?.body).toEqual({ size: 13 })
    expect(progress).toHaveBeenLastCalledWith(1)
    expect(xhr).toHaveLength(0)
  })

  it('sends a piece again when its answer was lost, from the same offset', async () => {
    // The server stored the second piece, but its answer never came back.
    const server = fakeServer({ lose: (n) => n === 1 })
    const { s, sleep } = stream()
    s.push(piece('ab'))
    await vi.waitFor(() => expect(server.pieces).toHaveLength(1))
    s.push(piece('cd'))
    await vi.waitFor(() => expect(server.pieces).toHaveLength(3))
    s.push(piece('ef'))
    await s.finish(piece('abcdef'))
    expect(server.pieces.map((p) => p.offset)).toEqual([0, 2, 2, 4])
    expect(sleep).toHaveBeenCalledWith(1000, undefined)
    expect(server.have()).toBe('abcdef')
    expect(server.calls.find((c) => c.key === FINISH)?.body).toEqual({ size: 6 })
  })

  it('uploads the whole recording when finish answers 409', async () => {
    const server = fakeServer()
    const xhr = stubXhr([{ status: 202, body: { item: { id: 'i1' } } }])
    const { s } = stream()
    s.push(piece('ab'))
    // The recorder's last piece never reached the stream: the sizes differ.
    const whole = piece('abcd')
    await s.finish(whole)
    expect(server.calls.filter((c) => c.key === FINISH)).toHaveLength(1)
    expect(xhr).toMatchObject([{ method: 'PUT', url: '/api/practice/sessions/s1/items/i1/audio', headers: { 'Content-Type': TYPE }, body: whole }])
  })

  it.each([
    ['a piece is refused', 409, 1],
    ['a piece keeps failing', 503, 5],
  ])('stops streaming and uploads whole when %s', async (_, status, requests) => {
    const server = fakeServer({ refuse: () => problem(status, 'No.') })
    const xhr = stubXhr([{ status: 202, body: { item: { id: 'i1' } } }])
    const { s } = stream()
    s.push(piece('ab'))
    await vi.waitFor(() => expect(server.pieces).toHaveLength(requests))
    s.push(piece('cd'))
    await s.finish(piece('abcd'))
    expect(server.pieces).toHaveLength(requests)
    expect(server.calls.some((c) => c.key === FINISH)).toBe(false)
    expect(xhr).toMatchObject([{ method: 'PUT' }])
  })

  it('tells of the usage guard at once, sends nothing more, and does not upload whole', async () => {
    const server = fakeServer({ refuse: () => problem(403, 'Usage paused.', 'Forbidden') })
    const xhr = stubXhr([{ status: 202 }])
    const { s, onRefused } = stream()
    s.push(piece('ab'))
    await vi.waitFor(() => expect(onRefused).toHaveBeenCalledWith('Usage paused.'))
    s.push(piece('cd'))
    const err = await s.finish(piece('abcd')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(403)
    expect(server.pieces).toHaveLength(1)
    expect(server.calls.some((c) => c.key === FINISH)).toBe(false)
    expect(xhr).toHaveLength(0)
  })
})
