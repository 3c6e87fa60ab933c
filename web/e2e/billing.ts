import type { APIRequestContext, Page } from '@playwright/test'
import { useOneFreeSession } from './practice-api'
import { createUserWithCli, expect, logInInUi, PASSWORD, type ServerState, uniqueEmail } from './fixtures'

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
  const email = uniqueEmail(tag)
  await createUserWithCli({ email, name: 'Penny Payer', password: PASSWORD }, server)
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('heading', { name: 'Welcome, Penny Payer' })).toBeVisible()
  await useFreeSessions(page.request)
  await page.reload()
  return email
}
