import type { APIRequestContext, Page } from '@playwright/test'
import { recording, useOneFreeSession } from './practice-api'
import { expect, linkIn, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'

async function startInterview(page: Page): Promise<string> {
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByLabel('Number of questions').fill('1')
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/dental\/session\?id=/)
  await expect(page.getByText('Question 1 of 1')).toBeVisible()
  return new URL(page.url()).searchParams.get('id')!
}

async function sessionStatus(request: APIRequestContext, id: string): Promise<string> {
  const res = await request.get(`/api/practice/sessions/${id}`)
  return ((await res.json()) as { session: { status: string } }).session.status
}

test('a trial user with one free session left starts one session from two tabs', async ({ page, context }) => {
  test.setTimeout(120_000)
  const user = { name: 'Tess Tabs', email: uniqueEmail('tabs'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()

  await useOneFreeSession(page.request)
  await expect(async () => {
    await page.goto('/dental/dashboard')
    await expect(page.getByText('Free trial: 7 days left and 1 free session remaining.')).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 60_000 })

  // The same setup, open in two tabs; Start is pressed in one, then the other.
  const second = await context.newPage()
  await page.goto('/dental/setup')
  await second.goto('/dental/setup')
  const first = await startInterview(page)
  const latest = await startInterview(second)

  // One session is in progress: the later Start replaced the earlier one,
  // which had no answer and so used no free session.
  expect(latest).not.toBe(first)
  expect(await sessionStatus(page.request, first)).toBe('completed')
  expect(await sessionStatus(page.request, latest)).toBe('active')
  await page.goto('/dental/dashboard')
  await expect(page.getByText('Free trial: 7 days left and 1 free session remaining.')).toBeVisible()

  // The first tab's session takes no answer, and says why.
  const items = ((await (await page.request.get(`/api/practice/sessions/${first}`)).json()) as { session: { items: { id: string }[] } }).session.items
  const refused = await page.request.put(`/api/practice/sessions/${first}/items/${items[0]!.id}/audio`, {
    headers: { 'Content-Type': 'audio/webm' },
    data: recording(),
  })
  expect(refused.status()).toBe(409)
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/started a newer session \(perhaps in another tab\)/)
  await second.screenshot({ path: test.info().outputPath('second-tab-session.png') })
})
