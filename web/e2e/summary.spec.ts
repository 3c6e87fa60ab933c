import { execFileSync } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { expectAxeClean } from './axe'
import { expect, linkIn, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'
import { expectUsableAt375 } from './layout'
import { practiseThroughApi, speech } from './practice-api'

const QUESTION = 'Why do you want to become a dentist?'
const ANSWER =
  'I want to become a dentist because a year of volunteering at a community clinic showed me how much trust matters. ' +
  'I watched a frightened patient relax as the dentist explained each step, and I want to give patients that same calm.'

/**
 * Issue 30 item 8: the summary opens with the score, the change that would
 * lift it most and the transcript; the rest opens from a disclosure button,
 * by mouse or keyboard; printing shows everything, without the page's buttons.
 */
test('the summary opens with what matters, the details on demand, and prints whole', async ({ page }) => {
  test.setTimeout(150_000)
  const user = { name: 'Reed Summary', email: uniqueEmail('summary'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
  const id = await practiseThroughApi(page.request, [{ question: QUESTION, audio: speech(ANSWER) }])

  await page.goto(`/dental/summary?id=${id}`)
  await expect(page.getByText('Session average')).toBeVisible({ timeout: 60_000 })
  const card = page.getByRole('article')
  await expect(card.getByText(/^Score: \d+$/)).toBeVisible()
  await expect(card.getByRole('group', { name: 'The change that would lift this score most' })).toBeVisible()
  await expect(card.getByRole('group', { name: 'Transcript' })).toBeVisible()
  const toggle = card.getByRole('button', { name: 'Scores, feedback and evidence' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(card.getByRole('group', { name: 'How this was scored' })).toBeHidden()
  for (const text of ['Back to Dashboard', 'Save Session', 'Start New Session', 'Print']) {
    await expect(page.getByRole(text === 'Save Session' || text === 'Print' ? 'button' : 'link', { name: text })).toBeVisible()
  }
  await expectUsableAt375(page, 'summary-collapsed')

  // From the keyboard: Enter opens, Space closes.
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(card.getByRole('group', { name: 'How this was scored' })).toBeVisible()
  await expect(card.getByText(/^Clarity & structure: \d+$/)).toBeVisible()
  await expectAxeClean(page)
  await expectUsableAt375(page, 'summary-expanded')
  await page.keyboard.press(' ')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')

  // Print, with everything collapsed on screen: the PDF has it all, and no buttons.
  await page.evaluate(() => {
    ;(window as unknown as { printed: number }).printed = 0
    window.print = () => void ((window as unknown as { printed: number }).printed += 1)
  })
  await page.getByRole('button', { name: 'Print' }).click()
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  const pdf = test.info().outputPath('summary.pdf')
  writeFileSync(pdf, await page.pdf({ format: 'Letter', printBackground: true }))
  const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString()
  for (const expected of ['Session summary', 'The change that would lift this score most', 'Transcript', 'How this was scored', 'Clarity & structure:', 'Content:', 'Words per minute']) {
    expect(text, `printed page has "${expected}"`).toContain(expected)
  }
  for (const absent of ['Back to Dashboard', 'Save Session', 'Start New Session', 'Correct the transcript']) {
    expect(text, `printed page has no "${absent}"`).not.toContain(absent)
  }
  execFileSync('pdftoppm', ['-png', '-r', '60', pdf, test.info().outputPath('summary-print')])
  expect(readdirSync(test.info().outputDir).filter((f) => f.startsWith('summary-print')).length).toBeGreaterThanOrEqual(1)
})
