import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { expect } from './fixtures'

// Practice through the API, for specs about what comes after it: a session
// counts against the free trial once a question in it is answered.

/** A two-second WebM/Opus tone, as a browser's recorder would send it. */
export function recording(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'whitecoat-tone-'))
  try {
    const out = join(dir, 'tone.webm')
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=320:duration=2', '-c:a', 'libopus', '-f', 'webm', out])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Uses one free session through the API: a one-question session, answered and completed. */
export async function useOneFreeSession(request: APIRequestContext) {
  const created = await request.post('/api/practice/sessions', {
    data: { profession: 'dental', mode: 'audio', interviewType: 'random', questionCount: 1 },
  })
  expect(created.status()).toBe(201)
  const { session } = (await created.json()) as { session: { id: string; items: { id: string }[] } }
  const uploaded = await request.put(`/api/practice/sessions/${session.id}/items/${session.items[0]!.id}/audio`, {
    headers: { 'Content-Type': 'audio/webm' },
    data: recording(),
  })
  expect(uploaded.status()).toBe(202)
  expect((await request.post(`/api/practice/sessions/${session.id}/complete`, { data: { totalSessionTime: 30 } })).status()).toBe(200)
}

