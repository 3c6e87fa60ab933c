import { execFileSync } from 'node:child_process'
import type { Page } from '@playwright/test'
import { expect, PASSWORD, signUpVerifiedInUi, test, uniqueEmail, waitForMail } from './fixtures'
import { expectUsableAt375 } from './layout'
import { practiseThroughApi, speech } from './practice-api'

const QUESTION = 'Why do you want to become a dentist?'
const ANSWER = 'I want to become a dentist because volunteering at a community clinic showed me how much trust between a dentist and a frightened patient matters.'

/** Shares the open saved session with reviewer from its page and returns the link the dialog shows once. */
async function shareInUi(page: Page, reviewer: string, expiry: string): Promise<string> {
  await page.getByRole('button', { name: 'Share for comments' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Reviewer’s name').fill(reviewer)
  await dialog.getByLabel('Link works for').selectOption({ label: expiry })
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const field = dialog.getByLabel(`Link for ${reviewer}`)
  await expect(field).toBeFocused()
  return field.inputValue()
}

/**
 * Issue 31's must-show for sharing: a student shares a saved session; a
 * second browser with no account opens the link and comments on one
 * answer; the student sees the comment and the email; a revoked link and
 * an expired link each say so.
 */
test('a student shares a saved session, a reviewer with no account comments, and closed links say why', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const student = { name: 'Sam Sharer', email: uniqueEmail('share'), password: PASSWORD }
  await signUpVerifiedInUi(page, student)
  const sessionId = await practiseThroughApi(page.request, [{ question: QUESTION, audio: speech(ANSWER) }])
  const saved = await page.request.post(`/api/practice/sessions/${sessionId}/save`, { data: { title: 'Clinic story practice' } })
  expect(saved.status()).toBe(201)
  const { saved: savedSession } = (await saved.json()) as { saved: { id: string } }

  await page.goto(`/dental/summary?saved=${savedSession.id}`)
  await expect(page.getByRole('heading', { name: 'Share with an advisor' })).toBeVisible()
  await expect(page.getByText('You have not shared this session yet.')).toBeVisible()
  const link = await shareInUi(page, 'Dr. Rivera', '7 days')
  expect(link).toMatch(/\/review\?token=[\w-]{43}$/)
  await expectUsableAt375(page, 'share-dialog')
  await page.getByRole('button', { name: 'Done' }).click()
  const links = page.getByRole('list', { name: 'Links to this session' })
  await expect(links.getByRole('listitem')).toHaveCount(1)
  await expect(links.getByText('Active')).toBeVisible()

  // The reviewer: another browser, no account.
  const reviewerContext = await browser.newContext()
  const reviewer = await reviewerContext.newPage()
  await reviewer.goto(link)
  await expect(reviewer.getByRole('heading', { level: 1, name: 'Sam’s practice session' })).toBeVisible()
  await expect(reviewer.getByText(QUESTION)).toBeVisible()
  await expect(reviewer.getByText(/^Score: \d+$/)).toBeVisible()
  await expect(reviewer.getByText(student.email)).toHaveCount(0)
  await expect(reviewer.getByText('Sharer')).toHaveCount(0)
  const comment = 'Open with the clinic patient: who she was and what the dentist said to calm her.'
  await reviewer.getByLabel('Your comment on question 1').fill(comment)
  await reviewer.getByRole('button', { name: 'Add comment' }).first().click()
  await expect(reviewer.getByRole('status').filter({ hasText: 'Comment added.' })).toBeVisible()
  await expect(reviewer.getByRole('list', { name: 'Your comments' }).getByText(comment)).toBeVisible()
  await expectUsableAt375(reviewer, 'review-page')

  // The student: the email, and the comment on the saved session.
  const mail = await waitForMail(student.email, /Dr\. Rivera commented/)
  expect(mail.text).toContain(`/dental/summary?saved=${savedSession.id}`)
  expect(mail.text).not.toContain(comment)
  await page.reload()
  const comments = page.getByRole('region', { name: 'Comments from reviewers' })
  await expect(comments.getByText(comment)).toBeVisible()
  await expect(comments.getByText(`Question 1: ${QUESTION}`)).toBeVisible()
  await expect(links.getByText('1 comment')).toBeVisible()
  await expectUsableAt375(page, 'saved-session-comments')

  // Turned off: the reviewer's next visit says so.
  await page.getByRole('button', { name: 'Turn off the link for Dr. Rivera' }).click()
  await expect(links.getByText('Turned off', { exact: true })).toBeVisible()
  await reviewer.reload()
  await expect(reviewer.getByRole('heading', { level: 1, name: 'This link was turned off' })).toBeVisible()
  await expect(reviewer.getByText('The student has turned this link off.')).toBeVisible()

  // Expired: a week-long link whose week has passed. The server has no
  // clock a test can move, so the link's end is moved back to when it was
  // made, in the database the server runs on.
  const expiring = await shareInUi(page, 'Ms. Okafor', '7 days')
  await page.getByRole('button', { name: 'Done' }).click()
  execFileSync('sqlite3', [
    process.env.E2E_DATABASE_URL!,
    `.timeout 5000`,
    `UPDATE session_shares SET expires_at = created_at WHERE reviewer_name = 'Ms. Okafor' AND saved_session_id = '${savedSession.id}'`,
  ])
  await reviewer.goto(expiring)
  await expect(reviewer.getByRole('heading', { level: 1, name: 'This link has expired' })).toBeVisible()
  await expect(reviewer.getByText('This link has expired. Ask the student for a new one')).toBeVisible()
  await expectUsableAt375(reviewer, 'review-expired')
  await page.reload()
  await expect(links.getByText('Expired', { exact: true })).toBeVisible()

  // Every link the student made, on the history page.
  await page.goto('/dental/history')
  const every = page.getByRole('list', { name: 'Every link you made' })
  await expect(every.getByRole('listitem')).toHaveCount(2)
  await expect(every.getByRole('link', { name: 'Clinic story practice' })).toHaveCount(2)
  await expect(every.getByText('Turned off', { exact: true })).toBeVisible()
  await expect(every.getByText('Expired', { exact: true })).toBeVisible()
  await expectUsableAt375(page, 'history-links')
  await reviewerContext.close()
})

test('right after Save, the summary offers Share for comments beside it', async ({ page }) => {
  await signUpVerifiedInUi(page, { name: 'Sol Saver', email: uniqueEmail('shareaftersave'), password: PASSWORD })
  const sessionId = await practiseThroughApi(page.request, [{ question: QUESTION, audio: speech(ANSWER) }])
  await page.goto(`/dental/summary?id=${sessionId}`)
  await expect(page.getByRole('button', { name: 'Share for comments' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Save Session' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Session saved to your dashboard.')).toBeVisible()
  // Beside Save: the next button in the summary's actions.
  await expect(page.getByRole('button', { name: 'Save Session' }).locator('xpath=following-sibling::*[1]')).toHaveText('Share for comments')
  await expectUsableAt375(page, 'summary-saved-share')
  const link = await shareInUi(page, 'Dr. Lee', '7 days')
  expect(link).toMatch(/\/review\?token=[\w-]{43}$/)
})

