import type { APIRequestContext, Page } from '@playwright/test'
import { createUserWithCli, expect, logInInUi, PASSWORD, type ServerState, uniqueEmail } from './fixtures'

/** Uses up the free sessions through the API: a one-question session, skipped and completed. */
export async function useFreeSessions(request: APIRequestContext) {
  for (let i = 0; i < 2; i++) {
    const created = await request.post('/api/practice/sessions', {
      data: { profession: 'dental', mode: 'audio', interviewType: 'random', questionCount: 1, big3: false },
    })
    expect(created.status()).toBe(201)
    const { session } = (await created.json()) as { session: { id: string; items: { id: string }[] } }
    expect((await request.post(`/api/practice/sessions/${session.id}/items/${session.items[0]!.id}/skip`)).ok()).toBe(true)
    expect((await request.post(`/api/practice/sessions/${session.id}/complete`, { data: { totalSessionTime: 5 } })).ok()).toBe(true)
  }
  // The stats update follows completion in a job: wait for it.
  await expect
    .poll(async () => ((await (await request.get('/api/dashboard')).json()) as { access: { freeSessionsRemaining: number } }).access.freeSessionsRemaining)
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
