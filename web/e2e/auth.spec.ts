import { appTakesOver, createUserWithCli, enrolAdminInUi, expect, linkIn, logInInUi, passCodeInUi, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'

// Toasts slide in and fade out here as for most students: these specs check them at rest.
test.use({ reducedMotion: 'no-preference' })

test('signup, verification email over SMTP, confirm, dashboard welcomes by name', async ({ page }) => {
  const user = { name: 'Vera Verified', email: uniqueEmail('signup'), password: PASSWORD }
  await signUpInUi(page, user)

  // Unverified: the yellow notice instead of the app.
  await expect(page.getByRole('heading', { name: 'Verify your email to unlock the app' })).toBeVisible()
  await expect(page.getByText(`Welcome, ${user.name}`)).toHaveCount(0)

  const mail = await waitForMail(user.email, /verif/i)
  expect(mail.from).toContain('no-reply@whitecoat.test')
  const link = linkIn(mail, 'verify-email')

  // Opening the link must not use the token (mail scanners open links).
  await page.goto(link)
  await expect(page.getByRole('button', { name: 'Confirm my email' })).toBeVisible()
  await page.goto('/dental/dashboard')
  await expect(page.getByRole('heading', { name: 'Verify your email to unlock the app' })).toBeVisible()

  await page.goto(link)
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
  await expect(page.getByText('Verify your email to unlock the app')).toHaveCount(0)

  // The link is single-use.
  await page.goto(link)
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('alert')).toContainText('✕ ')
})

test('an unverified user sees the yellow notice and can resend the email', async ({ page }) => {
  const user = { name: 'Una Unverified', email: uniqueEmail('unverified'), password: PASSWORD }
  await signUpInUi(page, user)
  const notice = page.getByRole('heading', { name: 'Verify your email to unlock the app' })
  await expect(notice).toBeVisible()
  // Yellow: the notice's box uses the warning palette.
  const box = page.locator('div', { has: notice }).last()
  const bg = await box.evaluate((el) => getComputedStyle(el.closest('[class*="bg-yellow"]') ?? el).backgroundColor)
  expect(bg).toMatch(/rgb\(254, 252, 232\)|oklch\(0\.98/)
  await expect(page.getByText(user.email)).toBeVisible()

  await waitForMail(user.email, /verif/i)
  await page.getByRole('button', { name: 'Resend verification email' }).click()
  await waitForMail(user.email, /verif/i, 2)
})

test('signing up with a registered email looks the same and tells the owner', async ({ page }) => {
  const email = uniqueEmail('taken')
  await createUserWithCli({ email, name: 'Olga Owner', password: PASSWORD })
  const fresh = uniqueEmail('fresh')
  const screens: string[] = []
  for (const address of [fresh, email]) {
    await page.goto('/signup')
    await page.getByLabel('Name').fill('Someone Else')
    await page.getByLabel('Email').fill(address)
    await page.getByLabel('Password').fill('another fine passphrase')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused()
    screens.push((await page.getByRole('main').innerText()).replace(address, 'ADDRESS'))
  }
  expect(screens[1]).toBe(screens[0])
  await waitForMail(fresh, /verif/i)
  const note = await waitForMail(email, /tried to sign up/i)
  expect(note.text).toContain(`${process.env.E2E_BASE_URL}/login`)
  expect(note.text).toContain(`${process.env.E2E_BASE_URL}/forgot-password`)
  // The owner's password is unchanged.
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
})

test('an admin created with the CLI enrols TOTP, then logs in with a code or a recovery code, and lands on the admin page', async ({ page }, testInfo) => {
  // A second code must wait for the next 30-second step.
  test.slow()
  const email = uniqueEmail('admin')
  await createUserWithCli({ email, name: 'Ada Admin', password: PASSWORD, admin: true })
  await page.goto('/dental')
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await logInInUi(page, email, PASSWORD)

  // Enrolment, looked at 375 px wide: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 812 })
  await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible()
  await expect(page.getByLabel('6-digit code from the app')).toBeFocused()
  await expect(page.getByLabel('6-digit code from the app')).toHaveAttribute('autocomplete', 'one-time-code')
  await expect(page.getByLabel('6-digit code from the app')).toHaveAttribute('inputmode', 'numeric')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await page.screenshot({ path: testInfo.outputPath('admin-enrol-375.png'), fullPage: true })
  // Until the second factor is passed, the admin pages stay closed.
  const before = await page.request.get('/api/admin/users')
  expect(before.status()).toBe(401)
  await page.getByLabel('6-digit code from the app').fill('000000')
  await page.getByRole('button', { name: 'Turn on second factor' }).click()
  await expect(page.getByRole('alert')).toContainText('✕ That code is not right.')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/login')
  const { secret, recoveryCodes } = await enrolAdminInUi(page, email, PASSWORD)
  expect(recoveryCodes).toHaveLength(10)
  await expect(page.getByRole('heading', { name: 'Admin dashboard' })).toBeVisible()

  // Toasts: top-right below the sticky header (covering none of its controls), rich colours, at most 3 visible.
  await expect(page.getByText('Logged in as Ada Admin.')).toBeVisible()
  const toaster = page.locator('[data-sonner-toaster]')
  await expect(toaster).toHaveAttribute('data-y-position', 'top')
  await expect(toaster).toHaveAttribute('data-x-position', 'right')
  await expect(toaster.locator('[data-sonner-toast]').first()).toHaveAttribute('data-rich-colors', 'true')
  const header = (await page.getByRole('banner').boundingBox())!
  // Where it comes to rest: it slides down into place, and a loaded
  // machine once measured it mid-slide, 5 px into the header.
  await expect
    .poll(async () => (await toaster.locator('[data-sonner-toast]').first().boundingBox())?.y)
    .toBeGreaterThanOrEqual(header.y + header.height)

  // Next login: the code step, then the admin page.
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await page.setViewportSize({ width: 375, height: 812 })
  await expect(page.getByRole('heading', { name: 'Enter your authentication code' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await page.screenshot({ path: testInfo.outputPath('admin-code-375.png'), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
  await passCodeInUi(page, secret)
  await expect(page).toHaveURL(/\/dental\/admin$/)
  await expect(page.getByRole('heading', { name: 'Admin dashboard' })).toBeVisible()

  // A recovery code works once.
  for (const outcome of ['works', 'refused']) {
    await page.context().clearCookies({ name: 'whitecoat_session' })
    await page.goto('/login')
    await logInInUi(page, email, PASSWORD)
    await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click()
    await expect(page.getByLabel('Recovery code')).toBeFocused()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Continue' }).click()
    if (outcome === 'works') await expect(page).toHaveURL(/\/dental\/admin$/)
    else await expect(page.getByRole('alert')).toContainText('✕ That code is not right.')
  }
})

test('a non-admin is sent away from the admin page', async ({ page }) => {
  const email = uniqueEmail('notadmin')
  await createUserWithCli({ email, name: 'Nora User', password: PASSWORD })
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome, Nora User' })).toBeVisible()
  await page.goto('/dental/admin')
  await expect(page).toHaveURL(/\/dental$/)
})

test('login shows the server error after a cross', async ({ page }) => {
  await page.goto('/login')
  await logInInUi(page, uniqueEmail('nobody'), 'wrong password entirely')
  await expect(page.getByRole('alert')).toHaveText('✕ Invalid email or password.')
})

test('logout returns to the profession home', async ({ page }) => {
  const email = uniqueEmail('logout')
  await createUserWithCli({ email, name: 'Leo Logout', password: PASSWORD })
  await page.goto('/medical')
  // The page is prerendered: the app, which remembers the profession,
  // takes it over once the visitor acts.
  await appTakesOver(page)
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page).toHaveURL(/\/medical\/dashboard$/)
  const header = page.getByRole('banner')
  await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await header.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/medical$/)
  await expect(header.getByRole('link', { name: 'Get started' })).toBeVisible()
  await expect(page.getByRole('main').getByRole('link', { name: 'Create free account' }).first()).toBeVisible()
  // The session is gone on the server too.
  await page.goto('/medical/dashboard')
  await expect(page).toHaveURL(/\/login$/)
})

test('forgot and reset password end to end over SMTP', async ({ page }) => {
  const email = uniqueEmail('reset')
  const newPassword = 'a brand new passphrase'
  await createUserWithCli({ email, name: 'Rita Reset', password: PASSWORD })

  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('status')).toContainText('password reset link')

  const mail = await waitForMail(email, /reset|password/i)
  await page.goto(linkIn(mail, 'reset-password'))
  await page.getByLabel('New password').fill(newPassword)
  await page.getByRole('button', { name: 'Save new password' }).click()
  await expect(page).toHaveURL(/\/login$/)

  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('alert')).toHaveText('✕ Invalid email or password.')
  await page.getByLabel('Password').fill(newPassword)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome, Rita Reset' })).toBeVisible()
})
