import { type Request } from '@playwright/test'
import { device, server, service, signUp, startOneQuestion, withSpeech } from './speech-stub'
import { expect } from './fixtures'
import { DENTIST_ANSWER, speakingTest } from './speaking'

/** Issue 39: the student chooses how they are heard, and the browser's own recogniser runs beside the recorder (see speech-stub.ts). */
const test = speakingTest(DENTIST_ANSWER)

function finishBody(req: Request): { size: number; browserTranscript?: { text: string; onDevice: boolean; confidence?: number } } {
  return req.postDataJSON()
}

test('each choice: on the device with its download, the browser service naming Google, the server with what to expect; remembered', async ({ page }) => {
  test.setTimeout(90_000)
  await withSpeech(page, { available: 'downloadable' })
  await signUp(page, 'Dee Device')
  await page.goto('/dental/setup')
  const choice = page.getByRole('group', { name: 'How you are heard' })
  await expect(choice.getByRole('radio')).toHaveCount(3)
  await expect(choice.getByRole('radio', { name: server })).toBeChecked()
  await expect(choice.getByText(/sends your audio to Google/)).toBeVisible()
  // The server's engine here is the offline one: said before recording.
  await expect(page.getByTestId('local-engine-note')).toBeVisible()

  await choice.getByRole('radio', { name: device }).check()
  await page.getByRole('button', { name: 'Download English for on-device recognition' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { speechInstalled?: boolean }).speechInstalled)).toBe(true)
  await expect(page.getByRole('button', { name: 'Download English for on-device recognition' })).toHaveCount(0)
  await expect(page.getByTestId('local-engine-note')).toHaveCount(0)

  await choice.getByRole('radio', { name: service }).check()
  await expect(page.getByText('Saving…')).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('radio', { name: service })).toBeChecked()
  // The dashboard's settings show the same choice, and change it.
  await page.goto('/dental/dashboard')
  const settings = page.getByRole('group', { name: 'How you are heard' })
  await expect(settings.getByRole('radio', { name: service })).toBeChecked()
  await settings.getByRole('radio', { name: server }).check()
  await expect(page.getByText('Saving…')).toHaveCount(0)
  await page.goto('/dental/setup')
  await expect(page.getByRole('radio', { name: server })).toBeChecked()
})

test('a browser without a recogniser is offered only the server', async ({ page }) => {
  await withSpeech(page, { none: true })
  await signUp(page, 'Fay Firefox')
  await page.goto('/dental/setup')
  const choice = page.getByRole('group', { name: 'How you are heard' })
  await expect(choice.getByRole('radio')).toHaveCount(1)
  await expect(choice.getByRole('radio', { name: server })).toBeChecked()
  await expect(page.getByText('This browser has no speech recognition of its own')).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /live captions/ })).toHaveCount(0)
})

test('live captions while speaking; a session that ends by itself restarts and the seam is merged; the text goes with the recording', async ({ page }) => {
  test.setTimeout(90_000)
  await withSpeech(page, {
    script: [
      [{ results: [['I want to', false]] }, { results: [['I want to become a dentist', true, 0.9]] }, { end: true }],
      [{ results: [['a dentist because I love', false]] }, { results: [['a dentist because I love helping people', true, 0.7]] }],
    ],
  })
  await signUp(page, 'Cal Captions')
  await startOneQuestion(page, service)
  // Every text the captions show, as it is drawn: the interim words last
  // 300 ms, which a busy machine's polling can miss.
  await page.evaluate(() => {
    const shown: string[] = ((window as unknown as { captionsShown: string[] }).captionsShown = [])
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="live-captions"]')?.textContent ?? ''
      if (text && shown.at(-1) !== text) shown.push(text)
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  await page.getByRole('button', { name: 'Start Recording' }).click()
  const captions = page.getByTestId('live-captions')
  await expect(captions).toHaveText('I want to become a dentist because I love helping people', { timeout: 15_000 })
  expect(await page.evaluate(() => (window as unknown as { captionsShown: string[] }).captionsShown)).toContain('I want to')
  // Not a live region: a screen reader is not read every interim word.
  await expect(captions).toHaveAttribute('aria-live', 'off')
  const starts = await page.evaluate(() => (window as unknown as { speechStarts: unknown[] }).speechStarts)
  expect(starts).toEqual([
    { track: true, processLocally: false, continuous: true, interimResults: true },
    { track: true, processLocally: false, continuous: true, interimResults: true },
  ])
  const finished = page.waitForRequest((r) => r.url().endsWith('/audio/finish'))
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  const body = finishBody(await finished)
  expect(body.browserTranscript).toEqual({ text: 'I want to become a dentist because I love helping people', onDevice: false, confidence: 0.8 })
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible()
})

test('captions turned off: none shown, the text still travels; on the device it says so', async ({ page }) => {
  test.setTimeout(90_000)
  await withSpeech(page, { script: [[{ results: [['I love helping people', true, 0.6]] }]] })
  await signUp(page, 'Otto Off')
  await page.goto('/dental/setup')
  await page.getByRole('radio', { name: device }).check()
  await page.getByRole('checkbox', { name: /live captions/ }).uncheck()
  await expect(page.getByText('Saving…')).toHaveCount(0)
  await startOneQuestion(page, device)
  await page.getByRole('button', { name: 'Start Recording' }).click()
  await expect(page.getByRole('timer')).toHaveText(/^0:0[0-7]$/)
  await page.waitForTimeout(1_000)
  await expect(page.getByTestId('live-captions')).toHaveCount(0)
  const finished = page.waitForRequest((r) => r.url().endsWith('/audio/finish'))
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  expect(finishBody(await finished).browserTranscript).toEqual({ text: 'I love helping people', onDevice: true, confidence: 0.6 })
})

test('a network error falls back to the server for that answer and says so once', async ({ page }) => {
  test.setTimeout(90_000)
  await withSpeech(page, { script: [[{ results: [['I want to', false]] }, { error: 'network' }]] })
  await signUp(page, 'Nell Network')
  await startOneQuestion(page, service)
  await page.getByRole('button', { name: 'Start Recording' }).click()
  // Shown once (a paragraph), and said once by the session's status region.
  const note = page.locator('p').filter({ hasText: /could not reach its speech service\)\. This answer will be transcribed by Whitecoat.s server instead\./ })
  await expect(note).toHaveCount(1)
  await expect(page.getByTestId('live-captions')).toHaveCount(0)
  const finished = page.waitForRequest((r) => r.url().endsWith('/audio/finish'))
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  const body = finishBody(await finished)
  expect(body.size).toBeGreaterThan(0)
  expect(body.browserTranscript).toBeUndefined()
  await expect(note).toHaveCount(1)
  // Not restarted after the failure.
  expect(await page.evaluate(() => (window as unknown as { speechStarts: unknown[] }).speechStarts.length)).toBe(1)
})
