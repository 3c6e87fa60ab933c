import { readFile } from 'node:fs/promises'
import { expectAxeClean } from './axe'
import { createUserWithCli, expect, grantPassWithCli, logInInUi, PASSWORD, test, uniqueEmail } from './fixtures'
import { practiseThroughApi, speech } from './practice-api'

const WHY = 'Why do you want to become a dentist?'
const SERVICE = 'Tell me about a time you helped someone.'
const WEAK = 'I like teeth. I think dentists are good and I want a job that pays well.'
const STRONG =
  'I want to become a dentist because a year of volunteering at a community clinic showed me how much trust matters. ' +
  'I watched a frightened patient relax as the dentist explained each step, and I want to give patients that same calm.'
const HELPED =
  'For two years I volunteered every Saturday at a free clinic serving uninsured families. ' +
  'A frightened mother told me her worries about the cost, so I listened to her, reassured her and made sure she had a follow-up appointment.'

// Issue 16's journey: three sessions, the trends and their table, the
// same question again, a corrected transcript, the data download, and
// the account deleted.
test('a student follows their progress, compares, corrects, downloads their data and leaves', async ({ page }) => {
  test.setTimeout(240_000)
  const email = uniqueEmail('progress')
  await createUserWithCli({ email, name: 'Pat Progress', password: PASSWORD })
  await grantPassWithCli(email) // three sessions: one more than the trial's
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('heading', { name: 'Welcome, Pat Progress' })).toBeVisible()

  await practiseThroughApi(page.request, [{ question: WHY, audio: speech(WEAK) }])
  const second = await practiseThroughApi(page.request, [{ question: WHY, audio: speech(STRONG) }])
  await practiseThroughApi(page.request, [{ question: SERVICE, audio: speech(HELPED) }])

  // The trends: a chart described in words, and every figure in a table.
  await page.reload()
  await page.getByRole('link', { name: 'See your progress: trends and competencies' }).click()
  await expect(page).toHaveURL(/\/dental\/progress$/)
  await expect(page.getByRole('heading', { name: 'Your progress', level: 1 })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Scores\. Overall: from \d+(\.\d)? to \d+(\.\d)?/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Words per minute\./ })).toBeVisible()
  const table = page.getByRole('table')
  await expect(table.getByRole('row')).toHaveCount(4)
  const map = page.getByRole('region', { name: 'Competency map' })
  await expect(map.getByRole('heading', { name: 'Not shown yet' })).toBeVisible()
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('progress-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('progress-375.png'), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
  const overallBefore = await table.getByRole('row').nth(2).getByRole('cell').nth(2).textContent()

  // The question answered twice: the change and the words.
  await table.getByRole('row').nth(2).getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`/dental/summary\\?id=${second}$`))
  // The comparison is among the details an answer opens on demand.
  await page.getByRole('button', { name: 'Scores, feedback and evidence' }).click()
  const compare = page.getByRole('group', { name: 'You answered this question before' })
  await expect(compare).toBeVisible({ timeout: 15_000 })
  await expect(compare.getByRole('row', { name: /^Score/ }).getByRole('cell').nth(2)).toHaveText(/^[+−]\d+$|^same$/)
  await compare.getByText('What you said differently').click()
  await expect(compare.locator('ins').first()).toBeVisible()
  await expect(compare.locator('del').first()).toBeVisible()

  // A corrected transcript is scored again, and the trends follow.
  const answer = page.getByRole('article').first()
  const scoreBefore = await answer.getByText(/^Score: \d+$/).textContent()
  await answer.getByRole('button', { name: 'Correct the transcript' }).click()
  await answer.getByLabel('Corrected transcript').fill(WEAK)
  await answer.getByRole('button', { name: 'Save and score again' }).click()
  await expect(answer.getByRole('heading', { name: 'Transcript Corrected by you' })).toBeVisible({ timeout: 15_000 })
  await expect(answer.getByText(/^Score: \d+$/)).not.toHaveText(scoreBefore ?? '')
  const scoreAfter = Number(((await answer.getByText(/^Score: \d+$/).textContent()) ?? '').replace('Score: ', ''))
  await page.goto('/dental/progress')
  await expect(page.getByRole('table').getByRole('row').nth(2).getByRole('cell').nth(2)).toHaveText(String(scoreAfter))
  expect(String(scoreAfter)).not.toBe(overallBefore)

  // The data, then the account, are the student's to take and to end.
  await page.goto('/dental/dashboard')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data (JSON)' }).click()])
  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as { account: { email: string }; sessions: { id: string }[] }
  expect(data.account.email).toBe(email)
  expect(data.sessions).toHaveLength(3)
  expect(data.sessions.map((s) => s.id)).toContain(second)

  await page.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page.getByText('Your account has been deleted.')).toBeVisible()
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByText('Invalid email or password.')).toBeVisible()
})
