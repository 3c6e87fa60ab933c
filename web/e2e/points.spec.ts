import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expectAxeClean } from './axe'
import { expect, PASSWORD, signUpVerifiedInUi, test, uniqueEmail } from './fixtures'
import { speech } from './practice-api'

/**
 * Issue 40 through the real pipeline: a spoken answer to a bank question is
 * judged by that question's own points. The student corrects what was heard
 * into an answer that makes the question's first three points, each in one
 * of its cues' words; the summary lists the points made with the words that
 * made them, the others as not made, and the most valuable one missed is
 * the change that would lift the score most.
 */
interface BankPoint {
  text: string
  cues: string[]
}
interface BankQuestion {
  text: string
  mainTags: string[]
  points: BankPoint[]
}

/** The bank as the server seeds it. */
const bank = (JSON.parse(readFileSync(join(process.cwd(), '..', 'internal', 'question', 'bank', 'questions.json'), 'utf8')) as { questions: BankQuestion[] })
  .questions

test('the summary says which of its question’s points the answer made, with its words, and the one it missed', async ({ page }) => {
  test.setTimeout(120_000)
  await signUpVerifiedInUi(page, { name: 'Pia Points', email: uniqueEmail('points'), password: PASSWORD })
  const created = await page.request.post('/api/practice/sessions', { data: { profession: 'dental', mode: 'audio', interviewType: 'random', questionCount: 1 } })
  expect(created.status()).toBe(201)
  const { session } = (await created.json()) as { session: { id: string; items: { id: string; question: string }[] } }
  const item = session.items[0]!
  const question = bank.find((q) => q.text === item.question && q.mainTags.includes('dental'))
  expect(question, item.question).toBeTruthy()
  const points = question!.points

  const uploaded = await page.request.put(`/api/practice/sessions/${session.id}/items/${item.id}/audio`, {
    headers: { 'Content-Type': 'audio/webm' },
    data: speech('I would like to talk about that for a moment.'),
  })
  expect(uploaded.status()).toBe(202)
  expect((await page.request.post(`/api/practice/sessions/${session.id}/complete`, { data: { totalSessionTime: 60 } })).status()).toBe(200)

  await page.goto(`/dental/summary?id=${session.id}`)
  const card = page.getByRole('article')
  await expect(card.getByRole('button', { name: 'Correct the transcript' })).toBeVisible({ timeout: 60_000 })
  // What the student meant: the question's first three points, each in the words of one of its cues.
  const said = points.slice(0, 3).map((p, i) => `${['First', 'Then', 'Finally'][i]}, I think it matters that I ${p.cues[0]}.`)
  await card.getByRole('button', { name: 'Correct the transcript' }).click()
  await card.getByLabel('Corrected transcript').fill(said.join(' '))
  await card.getByRole('button', { name: 'Save and score again' }).click()
  await expect(card.getByRole('heading', { name: 'Transcript Corrected by you' })).toBeVisible({ timeout: 15_000 })

  await expect(card.getByRole('group', { name: 'The change that would lift this score most' })).toContainText(points[3]!.text)
  await card.getByRole('button', { name: 'Scores, feedback and evidence' }).click()
  const content = card.getByRole('button', { name: /^Content/ })
  if ((await content.getAttribute('aria-expanded')) === 'false') await content.click()
  const listed = card.getByRole('heading', { name: 'This question’s points' }).locator('xpath=following-sibling::ul[1]').getByRole('listitem')
  await expect(listed).toHaveCount(points.length)
  for (const [i, p] of points.entries()) {
    const row = listed.nth(i)
    const name = p.text.replace(/\.$/, '')
    if (i < 3) {
      await expect(row).toContainText(`Met: ${name}`)
      await expect(row.locator('q')).toContainText(p.cues[0]!, { ignoreCase: true })
    } else {
      await expect(row).toContainText(`Not met: ${name}`)
    }
  }
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('points-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: test.info().outputPath('points-375.png'), fullPage: true })
})
