import { expect } from './fixtures'
import { speakingOnceTest } from './speaking'
import { service, signUp, startOneQuestion, withSpeech } from './speech-stub'

/**
 * Issue 39 item 3 through the real pipeline: the student is heard by their
 * browser's speech service (the scripted recogniser of speech-stub.ts),
 * which gives the words they said without the hesitations, as browsers
 * do; the server lines those words up with the recording (pocketsphinx)
 * and hears the "um" and "uh" in it. The microphone says the answer once,
 * so the recording holds exactly these words.
 */
const SAID = 'I want to become a dentist, um, because I love helping people, uh, and earning their trust.'
const BROWSER_HEARD = 'I want to become a dentist because I love helping people and earning their trust'

const test = speakingOnceTest(SAID, 1.5)

interface Item {
  transcript: string
  metrics: { source?: string; wordConfidence?: string; fillerCount: number; words?: { word: string; start: number }[] }
}

test('the browser’s words are lined up with the recording: shown with their times and the hesitations heard', async ({ page }) => {
  test.setTimeout(120_000)
  await withSpeech(page, { script: [[{ results: [[BROWSER_HEARD, true, 0.92]] }]] })
  await signUp(page, 'Ali Aligned')
  await startOneQuestion(page, service)
  const sessionId = new URL(page.url()).searchParams.get('id')!
  // What the browser heard so far goes with the recording's pieces, for the server to line up while they arrive.
  const heardSoFar: string[] = []
  page.on('request', (req) => {
    const heard = req.headers()['heard-so-far']
    if (req.method() === 'PATCH' && heard) heardSoFar.push(decodeURIComponent(heard))
  })
  await page.getByRole('button', { name: 'Start Recording' }).click()
  await expect(page.getByTestId('live-captions')).toHaveText(BROWSER_HEARD)
  // The answer runs to the server's 10 s limit, past the end of what is said.
  await expect(page.getByLabel('Replay your answer')).toBeVisible({ timeout: 20_000 })
  expect(heardSoFar).toContain(BROWSER_HEARD)
  await page.getByRole('button', { name: 'Complete Session' }).click()
  await expect(page).toHaveURL(/\/dental\/summary\?id=/)
  await expect(page.getByText('Session average')).toBeVisible({ timeout: 60_000 })

  const res = await page.request.get(`/api/practice/sessions/${sessionId}`)
  const item = ((await res.json()) as { session: { items: Item[] } }).session.items[0]!
  test.info().annotations.push({ type: 'transcript', description: item.transcript })
  expect(item.metrics.source).toBe('aligned')
  expect(item.metrics.wordConfidence).toBe('alignment')
  // The browser's words, in its order, with the hesitations the audio holds.
  expect(item.transcript.replace(/\b(um|uh),? ?/gi, '').replace(/[,.]/g, '').trim().toLowerCase()).toBe(BROWSER_HEARD.toLowerCase())
  expect(item.transcript).toMatch(/\b(um|uh)\b/i)
  expect(item.metrics.fillerCount).toBeGreaterThan(0)

  const transcript = page.getByRole('article').getByRole('group', { name: 'Transcript' })
  await expect(transcript.getByText(/^Your browser’s words, lined up with your recording/)).toBeVisible()
  await expect(transcript.locator('p').filter({ hasText: /\b(um|uh)\b/i }).first()).toBeVisible()
  await transcript.getByRole('button', { name: 'Words with times' }).click()
  const lines = transcript.getByRole('listitem')
  await expect(lines.first()).toHaveText(/^\d:\d\d\s*\S/)
  const words = item.metrics.words ?? []
  expect(words.length).toBeGreaterThan(10)
  expect(words.every((w, i) => i === 0 || w.start >= words[i - 1]!.start)).toBe(true)
  await page.screenshot({ path: test.info().outputPath('aligned-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 375, height: 812 })
  await page.screenshot({ path: test.info().outputPath('aligned-375.png'), fullPage: true })
})
