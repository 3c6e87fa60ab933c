import { createUserWithCli, expect, linkIn, logInInUi, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'

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

test('an admin created with the CLI lands on the admin page after login', async ({ page }) => {
  const email = uniqueEmail('admin')
  await createUserWithCli({ email, name: 'Ada Admin', password: PASSWORD, admin: true })
  await page.goto('/dental')
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await logInInUi(page, email, PASSWORD)
  // No wait on the "Logging in..." status here: a fast login navigates away
  // before it can be seen (the unit tests cover the status text).
  await expect(page).toHaveURL(/\/dental\/admin$/)
  await expect(page.getByRole('heading', { name: 'Admin dashboard' })).toBeVisible()

  // Toasts: top-right, rich colours, at most 3 visible.
  await expect(page.getByText('Logged in as Ada Admin.')).toBeVisible()
  const toaster = page.locator('[data-sonner-toaster]')
  await expect(toaster).toHaveAttribute('data-y-position', 'top')
  await expect(toaster).toHaveAttribute('data-x-position', 'right')
  await expect(toaster.locator('[data-sonner-toast]').first()).toHaveAttribute('data-rich-colors', 'true')
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
