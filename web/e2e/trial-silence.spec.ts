import { expect, linkIn, PASSWORD, signUpInUi, uniqueEmail, waitForMail } from './fixtures'
import { expectUsableAt375 } from './layout'
import { silentMicrophoneTest } from './speaking'

const test = silentMicrophoneTest()

const TWO_LEFT = 'Free trial: 7 days left and 2 free sessions remaining.'

/**
 * Issue 30: a one-question session answered with three seconds of silence
 * (a silent or broken microphone) said "No answers were scored in this
 * session" and still used a free session. Nothing scored, nothing used:
 * the dashboard still offers both, and the summary says why.
 */
test('a session with nothing scored leaves the free sessions unchanged and says why', async ({ page }) => {
  test.setTimeout(120_000)
  const user = { name: 'Quiet Mic', email: uniqueEmail('silence'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
  await expect(page.getByText(TWO_LEFT)).toBeVisible()

  await page.getByRole('link', { name: 'Start practice' }).click()
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByLabel('Number of questions').fill('1')
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page.getByText('Question 1 of 1')).toBeVisible()
  await page.getByRole('button', { name: 'Start Recording' }).click()
  // About three seconds of silence, timed by the page's own clock (10 s limit in e2e).
  await expect(page.getByRole('timer')).toHaveText(/^0:0[67]$/, { timeout: 15_000 })
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await expect(page.getByText('Your answer was saved.')).toBeVisible()
  await page.getByRole('button', { name: 'Complete Session' }).click()

  await expect(page).toHaveURL(/\/dental\/summary\?id=/)
  await expect(page.getByText('No answers were scored in this session.')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/No words were recognized in your answers: check that your microphone is on and not muted/)).toBeVisible()
  await expect(page.getByText(/does not use a free session/)).toBeVisible()
  await expect(page.getByText('No meaningful response detected. Skipping feedback.')).toBeVisible()
  await expect(page.getByText(/\d+%/)).toHaveCount(0)
  await expectUsableAt375(page, 'summary-not-scored')

  await page.getByRole('button', { name: 'Save Session' }).click()
  await page.getByRole('dialog').getByLabel('Title').fill('Silent microphone')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Session saved to your dashboard.')).toBeVisible()

  await page.getByRole('link', { name: 'Back to Dashboard' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
  await expect(page.getByText(TWO_LEFT)).toBeVisible()
  const row = page.getByRole('listitem').filter({ hasText: 'Silent microphone' })
  await expect(row.getByText('Not scored')).toBeVisible()
  await expect(row.getByText(/0%/)).toHaveCount(0)
  await expectUsableAt375(page, 'dashboard-after-silence')

  await page.goto('/dental/history')
  const historyRow = page.getByRole('listitem').filter({ hasText: 'Silent microphone' })
  await expect(historyRow.getByText(/1 of 1 answered · No answer could be scored/)).toBeVisible()
  await expect(historyRow.getByText('Not scored')).toBeVisible()
  await expectUsableAt375(page, 'history-not-scored')
})
