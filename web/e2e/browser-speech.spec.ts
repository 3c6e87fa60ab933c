import { type Page, type Request } from '@playwright/test'
import { expect, PASSWORD, signUpVerifiedInUi, uniqueEmail } from './fixtures'
import { DENTIST_ANSWER, speakingTest } from './speaking'

/**
 * Issue 39: the student chooses how they are heard, and the browser's own
 * recogniser runs beside the recorder. Debian's Chromium has no speech
 * service keys, so every page gets a scripted SpeechRecognition (an init
 * script): each session it starts plays the next script of
 * `localStorage['speech-script']` (results, an end by itself, an error),
 * and `available()` answers `localStorage['speech-available']`. With
 * `localStorage['speech-none']` the browser has no recogniser (Firefox).
 */
const test = speakingTest(DENTIST_ANSWER)

type Step = { results?: [string, boolean, number?][]; end?: true; error?: string }

function stubSpeech() {
  type Stubbed = Window & Record<string, unknown>
  const w = window as unknown as Stubbed
  if (localStorage.getItem('speech-none')) {
    delete w.SpeechRecognition
    delete w.webkitSpeechRecognition
    return
  }
  const scripts: Step[][] = JSON.parse(localStorage.getItem('speech-script') ?? '[]')
  const log: { track: boolean; processLocally: boolean; continuous: boolean; interimResults: boolean }[] = []
  w.speechStarts = log
  let session = 0
  class Stub {
    lang = ''
    continuous = false
    interimResults = false
    maxAlternatives = 1
    processLocally = false
    onresult: ((e: unknown) => void) | null = null
    onerror: ((e: { error: string }) => void) | null = null
    onend: (() => void) | null = null
    private timers: number[] = []
    private ended = false
    static available() {
      return Promise.resolve(localStorage.getItem('speech-available') ?? 'available')
    }
    static install() {
      localStorage.setItem('speech-available', 'available')
      w.speechInstalled = true
      return Promise.resolve(true)
    }
    start(track?: MediaStreamTrack) {
      log.push({ track: track instanceof MediaStreamTrack, processLocally: this.processLocally, continuous: this.continuous, interimResults: this.interimResults })
      const steps = scripts[session++] ?? []
      steps.forEach((step, i) => {
        this.timers.push(
          window.setTimeout(() => {
            if (this.ended) return
            if (step.results) {
              const results = step.results.map(([transcript, isFinal, confidence]) => Object.assign([{ transcript, confidence: confidence ?? 0 }], { isFinal }))
              this.onresult?.({ resultIndex: 0, results })
            }
            if (step.error) this.onerror?.({ error: step.error })
            if (step.end || step.error) this.finish()
          }, 300 * (i + 1)),
        )
      })
    }
    private finish() {
      if (this.ended) return
      this.ended = true
      this.timers.forEach(clearTimeout)
      window.setTimeout(() => this.onend?.(), 20)
    }
    stop() {
      this.finish()
    }
    abort() {
      this.finish()
    }
  }
  w.SpeechRecognition = Stub
  w.webkitSpeechRecognition = Stub
}

async function withSpeech(page: Page, opts: { script?: Step[][]; available?: string; none?: boolean }) {
  await page.addInitScript(
    ({ script, available, none }) => {
      localStorage.setItem('speech-script', JSON.stringify(script ?? []))
      if (available) localStorage.setItem('speech-available', available)
      else localStorage.removeItem('speech-available')
      if (none) localStorage.setItem('speech-none', '1')
      else localStorage.removeItem('speech-none')
    },
    { script: opts.script, available: opts.available, none: opts.none },
  )
  await page.addInitScript(stubSpeech)
}

const device = /^On this device/
const service = /^My browser.s speech service/
const server = /^Whitecoat.s server/

async function signUp(page: Page, name: string) {
  await signUpVerifiedInUi(page, { name, email: uniqueEmail('speech'), password: PASSWORD })
}

/** From the dashboard: an audio session of one question, up to its Start Recording. */
async function startOneQuestion(page: Page, hearing: RegExp) {
  await page.goto('/dental/setup')
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByLabel('Number of questions').fill('1')
  await page.getByRole('radio', { name: hearing }).check()
  await expect(page.getByRole('radio', { name: hearing })).toBeChecked()
  await expect(page.getByText('Saving…')).toHaveCount(0)
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/dental\/session\?id=/)
  await expect(page.getByRole('button', { name: 'Start Recording' })).toBeEnabled()
}

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
  await page.getByRole('button', { name: 'Start Recording' }).click()
  const captions = page.getByTestId('live-captions')
  await expect(captions).toHaveText('I want to')
  await expect(captions).toHaveText('I want to become a dentist because I love helping people', { timeout: 5_000 })
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
