import { type Page } from '@playwright/test'
import { expectAxeClean } from './axe'
import { expect, linkIn, PASSWORD, signUpInUi, uniqueEmail, waitForMail } from './fixtures'
import { speakingTest } from './speaking'

/**
 * A student answers the bank's Jehovah's Witness transfusion question with
 * an answer an interviewer would reject, through the real pipeline: a
 * festival-synthesized answer played by Chromium's fake microphone, streamed
 * to the server, transcribed by pocketsphinx and scored by the rubric. The
 * summary must show the red flag, the words that raised it and why it
 * matters, and pass axe at 375 px and on the desktop.
 *
 * Chromium loops the file and the server stops the answer at 10 s, so the
 * answer is short (about 5 s): whatever point of the loop the recording
 * starts at, 10 s of it holds every clause whole at least once.
 */
const ANSWER = 'I would give him the blood anyway while he was sedated, and I would not tell his family.'
const QUESTION = "An adult Jehovah's Witness refuses a blood transfusion that could save their life. How do you respond as their physician?"

const test = speakingTest(ANSWER)

/** axe (WCAG 2.1 AA) finds nothing; nothing scrolls sideways; a full-page screenshot is kept. */
async function expectAccessible(page: Page, shot: string) {
  const width = page.viewportSize()!.width
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${shot} width`).toBeLessThanOrEqual(width)
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath(`${shot}.png`), fullPage: true })
}

test('a red-flag answer to an ethics question: the summary shows the flag, its words, why, and how it was scored', async ({ page }) => {
  test.setTimeout(120_000)
  const user = { name: 'Rae Redflag', email: uniqueEmail('redflag'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()

  // A custom audio session of one question from the medical bank.
  await page.goto('/medical/setup')
  await page.getByRole('radio', { name: /Custom/ }).check()
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByLabel('Search the question bank').fill("Jehovah's Witness")
  await page.getByRole('list', { name: 'Question bank' }).getByRole('button', { name: /^Add/ }).first().click()
  await expect(page.getByText('Your questions (1/10)')).toBeVisible()
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/medical\/session\?id=/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(QUESTION)

  // The answer runs to the server's 10 s limit.
  await page.getByRole('button', { name: 'Start Recording' }).click()
  await expect(page.getByLabel('Replay your answer')).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Complete Session' }).click()

  await expect(page).toHaveURL(/\/medical\/summary\?id=/)
  await expect(page.getByText('Session average')).toBeVisible({ timeout: 60_000 })
  const card = page.getByRole('article')
  await expect(card).toHaveCount(1)
  const transcript = (await card.getByRole('heading', { name: 'Transcript' }).locator('+ p').textContent()) ?? ''
  test.info().annotations.push({ type: 'transcript', description: transcript })
  // Punctuation is restored from pauses: "blood, anyway" is as good.
  expect(transcript, 'transcript').toMatch(/blood,? anyway/)

  // The red flag, first: its name, the words that raised it, why it matters, what to do instead.
  const flags = card.getByRole('group', { name: /^Red flags?/ })
  await expect(flags).toBeVisible()
  await expect(flags.getByRole('heading', { level: 4, name: "Overriding the patient's decision" })).toBeVisible()
  const quotes = flags.locator('blockquote q')
  expect(await quotes.count()).toBeGreaterThanOrEqual(1)
  // Each quote is the transcript's own words.
  for (const q of await quotes.allTextContents()) expect(transcript).toContain(q)
  // pocketsphinx may mishear a word where the looped recording starts; the flag's words survive.
  await expect(quotes.first()).toContainText(/anyway|sedated|not tell/)
  await expect(flags.getByText('Why it matters').first()).toBeVisible()
  await expect(flags.getByText(/refuse care/).first()).toBeVisible()
  await expect(flags.getByText('What to do instead').first()).toBeVisible()
  // Before the summary and the breakdown, which open on demand.
  await card.getByRole('button', { name: 'Scores, feedback and evidence' }).click()
  const order = await card.evaluate((el) =>
    Array.from(el.querySelectorAll('h3')).map((h) => h.textContent ?? '').filter((t) => /Red flag|Suggestions|How this was scored/.test(t)),
  )
  expect(order[0]).toMatch(/^Red flags?/)
  expect(order).toContain('How this was scored')

  // How it was scored: three sections, open (the answer has a flag); Judgment at the bottom of the scale.
  const scoring = card.getByRole('group', { name: 'How this was scored' })
  const sections = scoring.getByRole('button')
  await expect(sections).toHaveCount(3)
  await expect(sections).toContainText(['Content', 'Clarity & structure', 'Overall impression'])
  await expect(sections.first()).toHaveAttribute('aria-expanded', 'true')
  const content = scoring.locator(`#${await sections.first().getAttribute('aria-controls')}`)
  const judgement = content.getByRole('listitem').filter({ hasText: 'Judgment' })
  await expect(judgement.getByText(/^Level [12] of 7$/)).toBeAttached()
  await expect(judgement.getByText(/disqualifying/)).toBeVisible()
  // A disclosure works from the keyboard.
  await sections.first().focus()
  await page.keyboard.press('Enter')
  await expect(sections.first()).toHaveAttribute('aria-expanded', 'false')
  await expect(content).toBeHidden()
  await page.keyboard.press('Enter')
  await expect(sections.first()).toHaveAttribute('aria-expanded', 'true')
  await expect(content).toBeVisible()

  // The punctuated transcript ("reads as sentences") is another branch's work: not asserted here.

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await expectAccessible(page, 'summary-desktop')
  await page.setViewportSize({ width: 375, height: 812 })
  await expectAccessible(page, 'summary-375')
})
