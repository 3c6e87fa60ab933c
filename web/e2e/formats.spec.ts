import { type Locator, type Page } from '@playwright/test'
import { createUserWithCli, expect, grantPassWithCli, logInInUi, PASSWORD, uniqueEmail } from './fixtures'
import { expectUsableAt375 } from './layout'
import { announcements, keepAnnouncements } from './announcements'
import { speakingTest } from './speaking'

/**
 * Issue 15: the interview formats in Chromium with a fake microphone that
 * says a station answer, against the real server (pocketsphinx, the rubric).
 * Timings are shortened in the setup itself, as any student may set them.
 */
const ANSWER =
  'I would first listen to the patient and ask what worries her. I would explain the risks honestly, respect her decision, and involve the team so that she is safe.'

const TYPED_ONE =
  'I would speak with my friend privately, explain that sharing answers is unfair to the other students and to future patients, and encourage them to delete the messages. ' +
  'If it continued, I would tell the course lead, because honesty matters more than avoiding an awkward conversation.'
const TYPED_TWO = 'I would say that I care about them, that I am not judging them, and that I want us both to earn our place honestly.'

const test = speakingTest(ANSWER)

async function signIn(page: Page, name: string) {
  const email = uniqueEmail('formats')
  await createUserWithCli({ email, name, password: PASSWORD })
  await grantPassWithCli(email) // several sessions: more than the trial's two
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible()
}

interface Setup {
  format: RegExp
  count: string
  prep: string
  answer: string
  typed?: string
  extension?: string
}

/** The setup page with a format, its count and timings, in audio mode. */
async function setUp(page: Page, s: Setup) {
  await page.goto('/medical/setup')
  await page.getByRole('radio', { name: s.format }).check()
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByRole('spinbutton', { name: /^Number of/ }).fill(s.count)
  await page.getByRole('spinbutton', { name: /^(Reading|Preparation) time/ }).fill(s.prep)
  await page.getByRole('spinbutton', { name: /^(Answer time|Time per spoken question)/ }).fill(s.answer)
  if (s.typed) await page.getByLabel('Typing time for both questions (seconds)').fill(s.typed)
  if (s.extension) await page.getByLabel('Extra time').selectOption({ label: s.extension })
}

async function start(page: Page) {
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/medical\/session\?id=/)
}

/** Every answer on the summary is transcribed or typed, and scored. */
async function expectEveryAnswerScored(page: Page, count: number) {
  await expect(page).toHaveURL(/\/medical\/summary\?id=/)
  await expect(page.getByText('Session average')).toBeVisible({ timeout: 60_000 })
  const cards = page.getByRole('article')
  await expect(cards).toHaveCount(count)
  for (let i = 0; i < count; i++) {
    await expect(cards.nth(i).getByText(/^Score: \d+$/)).toBeVisible()
  }
  return cards
}


/**
 * The recording of the current question started by itself (nobody pressed
 * Start), after the 3-2-1 countdown; with afterPreparation, that followed
 * the end of the preparation time.
 */
async function expectAutomaticStart(page: Page, afterPreparation = false) {
  await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible({ timeout: 20_000 })
  const said = (await announcements(page)).filter((s) => /^(Preparation|Recording)/.test(s))
  const want = ['Recording starts in 3 seconds', 'Recording started']
  if (afterPreparation) want.unshift('Preparation time is over')
  expect(said.slice(-want.length)).toEqual(want)
}

/** The orientation line: profession, format, timing and mode. */
function tag(page: Page): Locator {
  return page.getByText(/^Medical interview/)
}

// Each format is a test of its own, so that they run side by side.
test('an MMI station: the scenario, notes, an automatic start and follow-ups, scored on the summary', async ({ page }) => {
  test.setTimeout(120_000)
  await keepAnnouncements(page)
  await signIn(page, 'Mo Formats')

  // MMI: the scenario and a notes pad while reading; the answer starts by
  // itself when reading ends; a follow-up appears during the station.
  await setUp(page, { format: /MMI stations/, count: '1', prep: '60', answer: '12' })
  await expect(page.getByText('MMI stations: 2 min to read, 7 min per answer. Change any of them for this session.')).toBeVisible()
  await expectUsableAt375(page, 'setup-mmi')
  await start(page)
  await expect(tag(page)).toHaveText('Medical interview · MMI stations · Audio')
  await expect(page.getByText('Station 1 of 1')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Scenario' })).toBeVisible()
  await expect(page.getByText(/Reading time · time left/)).toBeVisible()
  await page.getByLabel('Your notes').fill('values: autonomy, honesty; who else: the team')
  await expectUsableAt375(page, 'session-mmi-reading')
  // Reading ended early; the recording still starts by itself.
  await page.getByRole('button', { name: 'Start answering now' }).click()
  await expectAutomaticStart(page, true)
  await expect(page.getByLabel('Your notes')).toHaveValue('values: autonomy, honesty; who else: the team')
  // The follow-ups appear through the station (at 3, 6 and 9 s of 12).
  await expect(page.getByRole('list', { name: 'The interviewer asks' }).getByRole('listitem').first()).toBeVisible({ timeout: 8_000 })
  await expectUsableAt375(page, 'session-mmi-station')
  await expect(page.getByText('Time is up. Your response was saved.')).toBeVisible({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Complete Session' }).click()
  const mmi = await expectEveryAnswerScored(page, 1)
  await expect(mmi.first().getByText('Scenario', { exact: true })).toBeVisible()
  await expectUsableAt375(page, 'summary-mmi')
})

test('a Kira-style question: preparation runs out by itself, then one take, scored on the summary', async ({ page }) => {
  test.setTimeout(120_000)
  await keepAnnouncements(page)
  await signIn(page, 'Kim Formats')

  await setUp(page, { format: /Kira-style/, count: '1', prep: '3', answer: '10' })
  await start(page)
  await expect(tag(page)).toHaveText('Medical interview · Kira-style · Audio')
  // Nobody presses anything: preparation runs out, then the take starts.
  await expectAutomaticStart(page, true)
  await expect(page.getByText('Time is up. Your response was saved.')).toBeVisible({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Complete Session' }).click()
  await expectEveryAnswerScored(page, 1)
})

test('a Casper-style set: two spoken questions on one scenario and a typed part, each scored on the summary', async ({ page }) => {
  test.setTimeout(120_000)
  await keepAnnouncements(page)
  await signIn(page, 'Cas Formats')

  // A video part (two questions on one scenario) and a typed part.
  await setUp(page, { format: /Casper-style/, count: '2', prep: '3', answer: '10', typed: '120' })
  await start(page)
  await expect(tag(page)).toHaveText('Medical interview · Casper-style · Audio')
  await expect(page.getByText('Station 1 of 3')).toBeVisible()
  await expectAutomaticStart(page)
  // Stopped by hand with a few seconds left on the page's own clock.
  await expect(page.getByRole('timer')).toHaveText(/^0:0[56]$/, { timeout: 15_000 })
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await expect(page.getByText('Your answer was saved.')).toBeVisible()
  await page.getByRole('button', { name: 'Next Question' }).click()
  // The second question of the set: no reading again, straight to the countdown.
  await expect(page.getByText('Station 2 of 3')).toBeVisible()
  await expectAutomaticStart(page)
  await expect(page.getByText('Time is up. Your response was saved.')).toBeVisible({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Next Question' }).click()
  await expect(page.getByText('Typed response · Station 3 of 3')).toBeVisible()
  await page.getByRole('button', { name: 'Start writing now' }).click()
  const boxes = page.getByRole('textbox')
  await expect(boxes).toHaveCount(2)
  await expect(boxes.first()).toBeFocused()
  await boxes.first().fill(TYPED_ONE)
  await boxes.nth(1).fill(TYPED_TWO)
  await expectUsableAt375(page, 'session-casper-typed')
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await page.getByRole('button', { name: 'Complete Session' }).click()
  const casper = await expectEveryAnswerScored(page, 3)
  const typed = casper.filter({ has: page.getByRole('heading', { name: 'Your written answer' }) })
  await expect(typed).toHaveCount(1)
  await expect(typed.getByText(TYPED_TWO, { exact: false })).toBeVisible()
  // Typed: content and structure feedback, no speech figures.
  await expect(typed.getByText('Words per minute')).toHaveCount(0)
  await expectUsableAt375(page, 'summary-casper')
})

test('2× time doubles every limit, and a screen reader hears only the milestones', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page, 'Ada Access')
  // The clock is Playwright's from here (it runs as usual until told to jump): the typed part's 80 s pass in a moment.
  await page.clock.install()
  await setUp(page, { format: /Casper-style/, count: '2', prep: '30', answer: '30', typed: '40', extension: '2 × every limit' })
  await start(page)
  await expect(tag(page)).toHaveText('Medical interview · Casper-style · 2× time · Audio')
  // Every limit of every question, doubled.
  const id = new URL(page.url()).searchParams.get('id')!
  const { session } = (await (await page.request.get(`/api/practice/sessions/${id}`)).json()) as {
    session: { items: { kind: string; prepSeconds: number; answerSeconds: number }[] }
  }
  expect(session.items.map((it) => [it.kind, it.prepSeconds, it.answerSeconds])).toEqual([
    ['spoken', 60, 60],
    ['spoken', 0, 60],
    ['typed', 60, 80],
  ])

  // The clocks show it: reading 30 s doubled (more than 0:30 left).
  const OVER_HALF_MINUTE = /^(1:00|0:(3[1-9]|[45]\d))$/
  await expect(page.getByRole('timer')).toHaveText(OVER_HALF_MINUTE)
  await page.getByRole('button', { name: 'Skip Question' }).click()
  // Answering: 30 s doubled.
  await expect(page.getByText('Station 2 of 3')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible({ timeout: 10_000 })
  await expect(page.getByRole('timer')).toHaveText(OVER_HALF_MINUTE)
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await page.getByRole('button', { name: 'Next Question' }).click()

  // Typing: 40 s doubled, after its reading, 30 s doubled.
  await expect(page.getByText('Typed response · Station 3 of 3')).toBeVisible()
  await expect(page.getByRole('timer')).toHaveText(OVER_HALF_MINUTE)
  await page.getByRole('button', { name: 'Start writing now' }).click()
  await expect(page.getByRole('timer')).toHaveText(/^1:(20|1\d)$/)
  await page.getByRole('textbox').first().fill(TYPED_ONE)

  // Every change the status region makes from here is what a screen reader hears.
  await page.evaluate(() => {
    const region = document.querySelector('main [role="status"].sr-only')!
    const heard: string[] = []
    ;(window as unknown as { heard: string[] }).heard = heard
    new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true })
  })
  await page.clock.runFor(50_000)
  await expect(page.getByText('Less than 30 seconds')).toBeVisible()
  await page.clock.runFor(31_000)
  await expect(page.getByText('Time is up. Your answers were submitted.')).toBeAttached()
  const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard)
  expect(heard).toEqual(['1 minute left', '30 seconds left', 'Time is up. Your answers were submitted.'])
})
