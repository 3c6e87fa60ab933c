import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { test as base } from './fixtures'

/**
 * The fixtures with a browser whose fake microphone says answer: festival
 * (cmu_us_slt_arctic_hts) speaks it once per worker, as 48 kHz 16-bit mono
 * PCM with a pause before Chromium loops it, and Chromium plays it to every
 * page of the worker, which also gets a fake camera.
 */
export function speakingTest(answer: string) {
  return fakeMicrophoneTest((dir, wav) => {
    writeFileSync(join(dir, 'answer.txt'), answer)
    execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', join(dir, 'answer.txt'), '-o', join(dir, 'raw.wav')])
    execFileSync('sox', [join(dir, 'raw.wav'), '-r', '48000', '-c', '1', '-b', '16', wav, 'pad', '0', '0.7'])
  })
}

/** The fixtures with a fake microphone that hears nothing: a silent or broken microphone (sox's silence, looped). */
export function silentMicrophoneTest() {
  return fakeMicrophoneTest((_dir, wav) => execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', wav, 'trim', '0', '3']))
}

/** The fixtures with a browser whose fake microphone plays the WAV file that write makes, once per worker. */
function fakeMicrophoneTest(write: (dir: string, wav: string) => void) {
  return base.extend<object, { answerWav: string }>({
    answerWav: [
      async ({}, use) => {
        const dir = mkdtempSync(join(tmpdir(), 'whitecoat-answer-'))
        const wav = join(dir, 'answer.wav')
        write(dir, wav)
        await use(wav)
        rmSync(dir, { recursive: true, force: true })
      },
      { scope: 'worker' },
    ],
    browser: [
      async ({ answerWav, launchOptions }, use) => {
        const browser = await chromium.launch({
          ...launchOptions,
          args: [
            ...(launchOptions.args ?? []),
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-audio-capture=${answerWav}`,
          ],
        })
        await use(browser)
        await browser.close()
      },
      { scope: 'worker' },
    ],
  })
}
