import type { APIRequestContext, Page } from '@playwright/test'
import { useOneFreeSession } from './practice-api'
import { expect, type ServerState, trialStudent } from './fixtures'

/** Uses up the free sessions through the API: answered sessions, as a student's would be. */
export async function useFreeSessions(request: APIRequestContext) {
  for (let i = 0; i < 2; i++) await useOneFreeSession(request)
  // The stats update follows completion in a job: wait for it.
  await expect
    .poll(async () => ((await (await request.get('/api/dashboard')).json()) as { access: { freeSessionsRemaining: number } }).access.freeSessionsRemaining, { timeout: 30_000 })
    .toBe(0)
}

/** A verified trial student with no free sessions left, signed in on page. */
export async function lockedStudent(page: Page, tag: string, server?: ServerState) {
  const email = await trialStudent(page, tag, server)
  await useFreeSessions(page.request)
  await page.reload()
  return email
}
