import { lockedStudent } from './billing'
import { expectAxeClean } from './axe'
import { expect, test, waitForMail } from './fixtures'

test('a student with no free sessions left buys Premium on the development checkout and practises', async ({ page }) => {
  test.slow()
  const email = await lockedStudent(page, 'buyer')
  await expect(page.getByText("You've used your 2 free sessions. Upgrade to Premium to keep practicing.")).toBeVisible()
  await expect(page.getByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
  await expect(page.getByRole('link', { name: 'Start practice' })).toHaveCount(0)

  await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Payments are simulated on this server' })).toBeVisible()
  await page.getByRole('button', { name: 'Upgrade', exact: true }).click()

  await expect(page).toHaveURL(/\/dental\/checkout\/test\?.*session=cs_simulated_/)
  await expect(page.getByRole('heading', { level: 1, name: 'Test payment — no money moves' })).toBeVisible()
  // Warned once that nothing is charged, not twice (issue 41).
  await expect(page.getByRole('heading', { name: 'Payments are simulated on this server' })).toBeVisible()
  await expect(page.getByText(/nothing is charged/)).toHaveCount(1)
  await expect(page.getByText('$29.00', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()

  await expect(page.getByText('Premium (365 days left)')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /^Premium is active until [A-Z][a-z]+ \d{1,2}, \d{4}\.$/ })).toBeVisible()
  // The return is said once: the address forgets it, so a reload or a bookmark does not say it again.
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  const receipt = await waitForMail(email, /Your Whitecoat Premium pass/)
  expect(receipt.text).toContain('within 7 days')

  await page.getByRole('link', { name: 'Start practice' }).click()
  await expect(page).toHaveURL(/\/dental\/setup$/)
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/dental\/session/)
  await expect(page.getByRole('button', { name: 'Start Recording' })).toBeVisible()
})

test('at 375 px the locked dashboard and the test checkout pass axe; cancelling returns with a neutral note', async ({ page }) => {
  test.slow()
  await page.setViewportSize({ width: 375, height: 800 })
  await lockedStudent(page, 'canceller')
  // One upgrade action; the banner says why.
  await expect(page.getByText("You've used your 2 free sessions. Upgrade to Premium to keep practicing.")).toBeVisible()
  await expect(page.getByRole('button', { name: 'Upgrade to Premium' })).toHaveCount(0)
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('locked-dashboard-375.png'), fullPage: true })
  await page.getByRole('button', { name: 'Upgrade to Practice' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Test payment — no money moves' })).toBeVisible()
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('test-checkout-375.png'), fullPage: true })
  await page.getByRole('link', { name: 'Cancel and go back' }).click()
  await expect(page.getByText('Checkout was canceled. You have not been charged.')).toBeVisible()
  await expect(page.getByText('Free Trial')).toBeVisible()
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  await page.reload()
  await expect(page.getByText('Free Trial')).toBeVisible()
  await expect(page.getByText('Checkout was canceled. You have not been charged.')).toHaveCount(0)
})

for (const width of [375, 1280]) {
  test(`pricing at ${width} px passes axe and fits`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/dental/pricing')
    await expect(page.getByRole('heading', { level: 2, name: 'Premium' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Get Premium' })).toBeVisible()
    await expectAxeClean(page)
    await page.screenshot({ path: test.info().outputPath(`pricing-${width}.png`), fullPage: true })
  })
}
