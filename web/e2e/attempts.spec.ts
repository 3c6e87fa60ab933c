import { expectAxeClean } from './axe'
import { expect, linkIn, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'
import { practiseThroughApi, speech } from './practice-api'

const QUESTION = 'Why do you want to become a dentist?'
const FIRST = 'I like teeth. I think dentists are good and I want a job that pays well.'
const SECOND =
  'I want to become a dentist because a year of volunteering at a community clinic showed me how much trust matters. ' +
  'I watched a frightened patient relax as the dentist explained each step, and I want to give patients that same calm.'

test('a question answered twice: the summary shows what changed since the earlier answer, and the words', async ({ page }) => {
  test.setTimeout(150_000)
  const user = { name: 'Sam Again', email: uniqueEmail('again'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()

  const first = await practiseThroughApi(page.request, [{ question: QUESTION, audio: speech(FIRST) }])
  const second = await practiseThroughApi(page.request, [{ question: QUESTION, audio: speech(SECOND) }])

  // The first time, nothing to compare with.
  await page.goto(`/dental/summary?id=${first}`)
  await expect(page.getByText('Session average')).toBeVisible()
  await expect(page.getByRole('group', { name: 'You answered this question before' })).toHaveCount(0)

  await page.goto(`/dental/summary?id=${second}`)
  // The comparison is among the details an answer opens on demand.
  await page.getByRole('button', { name: 'Scores, feedback and evidence' }).click()
  const compare = page.getByRole('group', { name: 'You answered this question before' })
  await expect(compare).toBeVisible({ timeout: 15_000 })
  const scoreRow = compare.getByRole('row', { name: /^Score/ })
  await expect(scoreRow.getByRole('cell').nth(2)).toHaveText(/^[+−]\d+$|^same$/)
  await compare.getByText('What you said differently').click()
  await expect(compare.locator('ins').first()).toBeVisible()
  await expect(compare.locator('del').first()).toBeVisible()
  await expectAxeClean(page)
  await page.setViewportSize({ width: 375, height: 800 })
  await expectAxeClean(page)
})
