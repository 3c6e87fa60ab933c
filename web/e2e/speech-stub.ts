import { type Page } from '@playwright/test'
import { expect, PASSWORD, signUpVerifiedInUi, uniqueEmail } from './fixtures'

/**
 * A scripted SpeechRecognition for the browser (issue 39). Debian's Chromium has no speech
 * service keys, so every page gets a scripted SpeechRecognition (an init
 * script): each session it starts plays the next script of
 * `localStorage['speech-script']` (results, an end by itself, an error),
 * and `available()` answers `localStorage['speech-available']`. With
 * `localStorage['speech-none']` the browser has no recogniser (Firefox).
 */
export type Step = { results?: [string, boolean, number?][]; end?: true; error?: string }

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

export async function withSpeech(page: Page, opts: { script?: Step[][]; available?: string; none?: boolean }) {
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

export const device = /^On this device/
export const service = /^My browser.s speech service/
export const server = /^Whitecoat.s server/

export async function signUp(page: Page, name: string) {
  await signUpVerifiedInUi(page, { name, email: uniqueEmail('speech'), password: PASSWORD })
}

/** From the dashboard: an audio session of one question, up to its Start Recording. */
export async function startOneQuestion(page: Page, hearing: RegExp) {
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
