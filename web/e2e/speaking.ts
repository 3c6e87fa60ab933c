import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type LaunchOptions } from '@playwright/test'
import { expect, test as base } from './fixtures'

/**
 * A student's answer to "Why do you want to become a dentist?", for the
 * fake microphone. Chromium loops it (7.35 s with its pause) and a
 * recording starts anywhere in the loop, so a check may not wait for
 * particular words: one started where "My family dentist" ends hears
 * "…taught me that trust matters. I want to become a…". Measured with
 * `whitecoat transcribe` on 3.8 s of the loop from every start a quarter
 * second apart, pocketsphinx hears at least 4 of DENTIST_ANSWER_WORDS.
 */
export const DENTIST_ANSWER = 'I want to become a dentist because I love helping people. My family dentist taught me that trust matters.'
const DENTIST_ANSWER_WORDS = ['want', 'become', 'dentist', 'because', 'love', 'helping', 'people', 'family', 'taught', 'trust', 'matters']

/** A transcript of at least 4 s of DENTIST_ANSWER has at least 3 of its words (4 measured at worst). */
export function expectDentistAnswerHeard(transcript: string) {
  const lower = transcript.toLowerCase()
  const heard = DENTIST_ANSWER_WORDS.filter((w) => lower.includes(w))
  expect(heard.length, `words of the answer in the transcript "${transcript}"`).toBeGreaterThanOrEqual(3)
}

/**
 * The fixtures with a browser whose fake microphone says answer: festival
 * (cmu_us_slt_arctic_hts) speaks it once per worker, as 48 kHz 16-bit mono
 * PCM with a pause before Chromium loops it, and Chromium plays it to every
 * page of the worker, which also gets a fake camera.
 */
export function speakingTest(answer: string) {
  return fakeMicrophoneTest((dir, wav) => speakLooped(dir, answer, wav))
}

/** Writes wav: festival saying answer, with the pause Chromium loops it after. */
export function speakLooped(dir: string, answer: string, wav: string) {
  writeFileSync(join(dir, 'answer.txt'), answer)
  execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', join(dir, 'answer.txt'), '-o', join(dir, 'raw.wav')])
  execFileSync('sox', ['-D', join(dir, 'raw.wav'), '-r', '48000', '-c', '1', '-b', '16', wav, 'pad', '0', '0.7'])
}

/**
 * The fixtures with a fake microphone that says answer once, after
 * leadSeconds of silence, and then stays silent: Chromium plays a file
 * given with "%noloop" from its start when a page opens the microphone,
 * so a recording started within leadSeconds of that holds the whole
 * answer, and its words are known (issue 39: a browser's transcript
 * aligned to the recording).
 */
export function speakingOnceTest(answer: string, leadSeconds: number) {
  return fakeMicrophoneTest((dir, wav) => {
    writeFileSync(join(dir, 'answer.txt'), answer)
    execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', join(dir, 'answer.txt'), '-o', join(dir, 'raw.wav')])
    execFileSync('sox', ['-D', join(dir, 'raw.wav'), '-r', '48000', '-c', '1', '-b', '16', wav, 'pad', String(leadSeconds), '0'])
  }, '%noloop')
}

/** The fixtures with a fake microphone that hears nothing: a silent or broken microphone (sox's silence, looped). */
export function silentMicrophoneTest() {
  return fakeMicrophoneTest((_dir, wav) => execFileSync('sox', ['-D', '-n', '-r', '48000', '-c', '1', '-b', '16', wav, 'trim', '0', '3']))
}

/**
 * The fixtures with a browser whose fake microphone plays the WAV file that
 * write makes, once per worker; looped unless capture is "%noloop".
 */
function fakeMicrophoneTest(write: (dir: string, wav: string) => void, capture: '' | '%noloop' = '') {
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
        const browser = await launchWithFakeMedia(launchOptions, [`--use-file-for-fake-audio-capture=${answerWav}${capture}`])
        await use(browser)
        await browser.close()
      },
      { scope: 'worker' },
    ],
  })
}

/** Chromium with fake media devices, granted without asking, fed by the files `files` names. */
export function launchWithFakeMedia(launchOptions: LaunchOptions, files: string[]) {
  return chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', ...files],
  })
}
