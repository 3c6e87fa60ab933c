import { expectAxeClean as expectNoViolations } from './axe'
import { createUserWithCli, enrolAdminInUi, expect, PASSWORD, signUpInUi, test, uniqueEmail } from './fixtures'

// One test per page: axe takes seconds per page, and separate tests run in
// parallel. The profession's pages are checked in public-site.spec.
for (const path of ['/login', '/signup', '/forgot-password', '/verify-email?token=x', '/reset-password?token=x']) {
  test(`public page ${path} passes axe (WCAG 2.1 AA)`, async ({ page }) => {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // Check the loaded page, not the landing's loading skeleton.
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    await expectNoViolations(page)
  })
}

test('the unverified dashboard and the open menu pass axe', async ({ page }) => {
  await signUpInUi(page, { name: 'Axel Access', email: uniqueEmail('axe'), password: PASSWORD })
  await expect(page.getByRole('heading', { name: 'Verify your email to unlock the app' })).toBeVisible()
  await expectNoViolations(page)
  await page.setViewportSize({ width: 375, height: 800 })
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expectNoViolations(page, { outline: false })
})

test('the admin dashboard, question manager and question form pass axe', async ({ page }) => {
  // Three axe runs in one signed-in flow: several seconds each on a busy machine.
  test.slow()
  const email = uniqueEmail('axeadmin')
  await createUserWithCli({ email, name: 'Axel Admin', password: PASSWORD, admin: true })
  await enrolAdminInUi(page, email, PASSWORD)
  await expect(page.getByRole('table', { name: /^Users/ }).getByRole('row').nth(1)).toBeVisible()
  await expectNoViolations(page)
  await page.getByRole('link', { name: 'Manage questions' }).click()
  await expect(page.getByRole('table', { name: /^Questions/ }).getByRole('button', { name: /^View/ }).first()).toBeVisible()
  await expectNoViolations(page)
  await page.getByRole('button', { name: 'New question' }).click()
  await expect(page.getByRole('dialog', { name: 'New question' })).toBeVisible()
  await expectNoViolations(page)
})

test('a skip link leads to the main content', async ({ page }) => {
  await page.goto('/dental')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to main content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main')).toBeFocused()
})
