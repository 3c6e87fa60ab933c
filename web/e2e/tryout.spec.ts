import { appTakesOver, expect, linkIn, PASSWORD, signUpInUi, uniqueEmail, waitForMail } from './fixtures'
import { expectAxeClean } from './axe'
import { DENTIST_ANSWER, expectDentistAnswerHeard, speakingTest } from './speaking'

/**
 * Trying the default question on a landing page without an account, with
 * a fake microphone that says DENTIST_ANSWER, against the real server
 * (pocketsphinx and the rubric engine). The server allows TRY_LIMIT_PER_IP
 * tries an hour from one address (global-setup.ts): every test here
 * browses from 127.0.0.1, so they run in order, the limit last.
 */
const NETWORK_LIMIT = 'Too many tries from your network right now — sign up to keep practicing.'
const NETWORK_ERROR = 'Network error. Check your connection and try again.'
const TWO_LEFT = 'Free trial: 7 days left and 2 free sessions remaining.'

const test = speakingTest(DENTIST_ANSWER)
test.describe.configure({ mode: 'serial' })

test('a visitor on /dental records an answer, reads its scored feedback without an account, signs up and finds it in their history with their free sessions unchanged', async ({
  page,
}, testInfo) => {
  test.slow()
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/dental')
    const panel = page.getByRole('region', { name: 'Try it now, no account needed' })
    const record = panel.getByRole('button', { name: 'Record your answer' })
    // Its buttons wait, disabled, for the app, which loads when the visitor acts.
    await appTakesOver(page)
    await expect(record).toBeEnabled()
    if (width === 375) {
      // The panel as it first shows, before an answer.
      await panel.screenshot({ path: testInfo.outputPath(`try-start-${width}.png`) })
      continue
    }
    await record.focus()
    await page.keyboard.press('Enter')
    const stop = panel.getByRole('button', { name: 'Stop and get feedback' })
    await expect(stop).toBeFocused()
    await expect(panel.getByText(/^0:0[5-9] \/ 2:00$/)).toBeVisible({ timeout: 15_000 })
    await page.keyboard.press('Enter')
    await expect(panel.getByRole('status')).toHaveText('Your feedback is ready.', { timeout: 90_000 })
    const card = panel.getByRole('article', { name: 'Why do you want to become a dentist?' })
    await expect(card.getByText(/^Score: \d+$/)).toBeVisible()
    expectDentistAnswerHeard((await card.getByRole('heading', { name: 'Transcript' }).locator('+ p').textContent()) ?? '')
    await expectAxeClean(page)
    await panel.screenshot({ path: testInfo.outputPath(`try-feedback-${width}.png`) })
    // The same feedback at phone width.
    await page.setViewportSize({ width: 375, height: 900 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await panel.screenshot({ path: testInfo.outputPath('try-feedback-375.png') })
    const score = (await card.getByText(/^Score: \d+$/).textContent()) ?? ''

    await panel.getByRole('link', { name: 'Create a free account to save this answer' }).click()
    await expect(page).toHaveURL(/\/signup$/)
    const user = { name: 'Tia Tryer', email: uniqueEmail('try'), password: PASSWORD }
    await signUpInUi(page, user)
    await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
    await expect(page.getByText('The answer you tried before signing up is saved in your history.')).toBeVisible()
    await expect(page.getByText(TWO_LEFT)).toBeVisible()
    await page.goto('/dental/history')
    const row = page.getByRole('main').getByText('Tried before signing up')
    await expect(row).toBeVisible()
    await expect(page.getByRole('main').getByText(score.replace('Score: ', ''), { exact: false }).first()).toBeVisible()
    // Saving it used none of the free sessions.
    await page.goto('/dental/dashboard')
    await expect(page.getByText(TWO_LEFT)).toBeVisible()
  }
})

test('the recorder loads on the first Record press: when it cannot arrive the panel says so, and the next press records', async ({ page }) => {
  await page.goto('/dental')
  const panel = page.getByRole('region', { name: 'Try it now, no account needed' })
  const record = panel.getByRole('button', { name: 'Record your answer' })
  await appTakesOver(page)
  await expect(record).toBeEnabled()
  // The connection drops after the page has loaded: no further script arrives.
  await page.route('**/*.js', (route) => route.abort('internetdisconnected'))
  await record.click()
  await expect(panel.getByRole('alert')).toHaveText(`✕ ${NETWORK_ERROR}`)
  await page.unroute('**/*.js')
  await record.click()
  await expect(panel.getByRole('button', { name: 'Stop and get feedback' })).toBeVisible()
  await expect(panel.getByRole('alert')).toHaveCount(0)
})

test('the anonymous try limit is reached and says so', async ({ page }) => {
  test.slow()
  await page.goto('/dental')
  const panel = page.getByRole('region', { name: 'Try it now, no account needed' })
  await appTakesOver(page)
  await panel.getByRole('button', { name: 'Type instead' }).click()
  // Typed tries, each scored before the next, until the network's hour is used up.
  for (let attempt = 0; attempt < 10; attempt++) {
    await panel.getByLabel('Your answer').fill(`Attempt ${attempt}: I want to become a dentist because my family dentist showed me that trust matters.`)
    await panel.getByRole('button', { name: 'Get feedback' }).click()
    const outcome = await Promise.race([
      panel.getByRole('alert').waitFor({ timeout: 60_000 }).then(() => 'refused' as const),
      panel.getByText('Your feedback is ready.').waitFor({ timeout: 60_000 }).then(() => 'scored' as const),
    ])
    if (outcome === 'refused') break
    // Back to the form, still typing.
    await panel.getByRole('button', { name: 'Try again' }).click()
  }
  // And when trying opens again (issue 41): within the hour the limit counts.
  await expect(panel.getByRole('alert')).toHaveText(new RegExp(`^✕ ${NETWORK_LIMIT} You can try again in (\\d+ seconds|a minute|\\d+ minutes)\\.$`))
  await expect(panel.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup')
})
