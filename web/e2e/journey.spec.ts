import { execFileSync } from 'node:child_process'
import type { Page } from '@playwright/test'
import { expectAxeClean } from './axe'
import { appTakesOver, expect, linkIn, PASSWORD, test, trialStudent, uniqueEmail, waitForMail } from './fixtures'
import { useOneFreeSession } from './practice-api'
import { pageOn, startWhitecoat, type OwnServer } from './servers'

// Issue 30: the verification link signs the student in; a trial student may
// buy Premium on day one; a usage pause is a state of the dashboard. Each at
// a phone's and a laptop's width, with a screenshot of every changed screen.

const WIDTHS = [1280, 375] as const

function shot(page: Page, name: string, width: number) {
  return page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true })
}

for (const width of WIDTHS) {
  test(`at ${width} px the verification link lands signed in on the dashboard with a welcome`, async ({ page }) => {
    test.slow()
    await page.setViewportSize({ width, height: 900 })
    const user = { name: 'Lena Link', email: uniqueEmail(`link-${width}`) }
    await page.goto('/signup')
    await page.getByLabel('Name').fill(user.name)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused()
    const link = linkIn(await waitForMail(user.email, /verif/i), 'verify-email')

    // The link's page, signed out: it says what pressing does, and opening
    // it signs nobody in (mail scanners open links).
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeVisible()
    await expect(page.getByText('You’ll be signed in and taken to your dashboard.', { exact: false })).toBeVisible()
    expect(await (await page.request.get('/api/auth/me')).json()).toEqual({})
    await expectAxeClean(page)
    await shot(page, 'verify-email', width)

    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await expect(page).toHaveURL(/\/dental\/dashboard$/)
    await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
    await expect(page.getByText('Your email is confirmed. Welcome to Whitecoat!')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start practice' })).toBeVisible()
    await expectAxeClean(page)
    await shot(page, 'dashboard-welcome', width)
    // The welcome is for the visit the link began: a reload does not confirm the email again.
    await page.reload()
    await expect(page.getByRole('link', { name: 'Start practice' })).toBeVisible()
    await expect(page.getByText('Your email is confirmed. Welcome to Whitecoat!')).toHaveCount(0)

    // Used: the link says so and offers log in and a new link.
    await page.context().clearCookies()
    await page.goto(link)
    await page.getByRole('button', { name: 'Confirm my email' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible()
    await expect(page.getByRole('main').getByRole('link', { name: 'Log in' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Send a new link' })).toBeVisible()
    expect(await (await page.request.get('/api/auth/me')).json()).toEqual({})
    await expectAxeClean(page)
    await shot(page, 'verify-email-used', width)
  })

  test(`at ${width} px a trial student buys Premium from the dashboard on day one`, async ({ page }) => {
    test.slow()
    await page.setViewportSize({ width, height: 900 })
    await trialStudent(page, `dayone-${width}`)
    await expect(page.getByText('Free trial: 7 days left and 2 free sessions remaining.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start practice' })).toBeVisible()
    await expectAxeClean(page)
    await shot(page, 'dashboard-trial', width)

    // Pricing offers Premium too, beside the way into practice.
    await page.goto('/dental/pricing')
    await appTakesOver(page)
    await expect(page.getByRole('button', { name: 'Upgrade', exact: true })).toBeEnabled()
    await expect(page.getByRole('link', { name: 'Start practice' })).toHaveAttribute('href', '/dental/setup')
    await shot(page, 'pricing-trial', width)

    await page.goto('/dental/dashboard')
    await page.getByRole('button', { name: 'Upgrade to Premium' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Test payment — no money moves' })).toBeVisible()
    await page.getByRole('button', { name: 'Pay' }).click()
    // A year from the purchase, as the terms say: not from the trial's end.
    await expect(page.getByText('Premium (365 days left)')).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: /^Premium is active until / })).toBeVisible()
    await expect(page).toHaveURL(/\/dental\/dashboard$/)
    await expect(page.getByRole('button', { name: 'Upgrade to Premium' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Start practice' })).toBeVisible()
  })

  test(`at ${width} px a locked student is told why, with one upgrade, before any form`, async ({ page }) => {
    test.slow()
    await page.setViewportSize({ width, height: 900 })
    await trialStudent(page, `locked-${width}`)
    for (let i = 0; i < 2; i++) await useOneFreeSession(page.request)
    await expect
      .poll(async () => ((await (await page.request.get('/api/dashboard')).json()) as { access: { practiceEnabled: boolean } }).access.practiceEnabled, {
        timeout: 30_000,
      })
      .toBe(false)
    const reason = "You've used your 2 free sessions. Upgrade to Premium to keep practicing."

    await page.goto('/dental/dashboard')
    await expect(page.getByText(reason)).toBeVisible()
    await expect(page.getByRole('button', { name: /upgrade|buy/i })).toHaveCount(1)
    await shot(page, 'dashboard-locked', width)

    await page.goto('/dental/pricing')
    await appTakesOver(page)
    await expect(page.getByText(reason)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start practice' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Upgrade', exact: true })).toBeEnabled()
    await expectAxeClean(page)
    await shot(page, 'pricing-locked', width)

    await page.goto('/dental/setup')
    await expect(page.getByRole('heading', { name: 'Practice is locked' })).toBeVisible()
    await expect(page.getByText(reason)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Start Interview' })).toHaveCount(0)
    await expectAxeClean(page)
    await shot(page, 'setup-locked', width)
  })

  test(`at ${width} px History and Progress are in the menu, and once the trial has ended each says why with the upgrade`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    const email = await trialStudent(page, `history-locked-${width}`)
    // The server has no clock a test can move: the trial's end is moved
    // back to when the account was made, in the database the server runs on.
    execFileSync('sqlite3', [process.env.E2E_DATABASE_URL!, '.timeout 5000', `UPDATE users SET trial_expires_at = created_at WHERE email = '${email}'`])
    const reason = 'Your free trial has ended. Upgrade to Premium to keep practicing.'
    for (const [link, title, locked] of [
      ['History', 'History is locked', 'Your session history is locked until you upgrade.'],
      ['Progress', 'Progress is locked', 'Your progress is locked until you upgrade.'],
    ] as const) {
      if (width < 1024) await page.getByRole('button', { name: 'Open menu' }).click()
      await page.getByRole('navigation', { name: width < 1024 ? 'Main menu' : 'Main' }).getByRole('link', { name: link, exact: true }).click()
      await expect(page).toHaveURL(`/dental/${link.toLowerCase()}`)
      await expect(page.getByText(title, { exact: true })).toBeVisible()
      await expect(page.getByText(`${locked} ${reason}`)).toBeVisible()
      await expect(page.getByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
      await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible()
      await expectAxeClean(page)
      await shot(page, `${link.toLowerCase()}-locked`, width)
    }
    // A signed-in header holds three more links: between a phone and a
    // laptop (a tablet, 768-1023 px) it is the menu, and nothing is pushed
    // past the window's edge.
    for (const tablet of [768, 900]) {
      await page.setViewportSize({ width: tablet, height: 900 })
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${tablet} px`).toBeLessThanOrEqual(tablet)
    }
  })
}

test.describe('a usage pause', () => {
  // A server of its own whose usage guard pauses after one answer a day.
  let server: (OwnServer & { listenURL: string }) | null = null
  test.beforeAll(async () => {
    server = await startWhitecoat({ PRACTICE_DAILY_ANSWER_LIMIT: '1' })
  })
  test.afterAll(async () => {
    await server?.close()
  })

  for (const width of WIDTHS) {
    test(`at ${width} px a paused student sees the pause on the dashboard with Start disabled`, async ({ browser }) => {
      test.slow()
      const { context, page } = await pageOn(browser, server!)
      await page.setViewportSize({ width, height: 900 })
      await trialStudent(page, `paused-${width}`, server!)
      await useOneFreeSession(page.request)

      await page.goto('/dental/dashboard')
      await expect(page.getByRole('heading', { name: 'Practice is paused' })).toBeVisible()
      await expect(page.getByText("We've noticed unusually heavy usage on your account.", { exact: false })).toBeVisible()
      await expect(page.getByText(/^Practice opens again on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2} at \d{1,2}:\d{2} [AP]M\.$/)).toBeVisible()
      await expect(page.getByRole('button', { name: 'Start practice' })).toBeDisabled()
      await expect(page.getByRole('link', { name: 'Start practice' })).toHaveCount(0)
      await expectAxeClean(page)
      await shot(page, 'dashboard-paused', width)

      // The setup refuses up front too, and the server would not start one.
      await page.goto('/dental/setup')
      await expect(page.getByRole('heading', { name: 'Practice is paused' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Start Interview' })).toHaveCount(0)
      await shot(page, 'setup-paused', width)
      const refused = await page.request.post('/api/practice/sessions', { data: { profession: 'dental', mode: 'audio', interviewType: 'random', questionCount: 1 } })
      expect(refused.status()).toBe(403)
      await context.close()
    })
  }
})
