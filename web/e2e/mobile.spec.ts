import { expect, test } from './fixtures'

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })

test('at 375 px the header uses a menu toggle and nothing overflows', async ({ page }) => {
  await page.goto('/dental')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const header = page.getByRole('banner')
  await expect(header.getByRole('navigation', { name: 'Main', exact: true })).toBeHidden()
  const toggle = header.getByRole('button', { name: 'Open menu' })
  await expect(toggle).toBeVisible()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')

  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(375)

  // The page is prerendered and its app loads when the visitor first acts:
  // this press is held until the app is ready, then made again.
  await toggle.click()
  const menu = header.getByRole('navigation', { name: 'Main menu' })
  await expect(menu).toBeVisible()
  await expect(header.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
  for (const name of ['Pricing', 'Resources', 'About', 'Log in', 'Get started']) {
    await expect(menu.getByRole('link', { name })).toBeVisible()
  }
  await menu.getByRole('link', { name: 'Pricing' }).click()
  await expect(page).toHaveURL(/\/dental\/pricing$/)
  await expect(menu).toBeHidden()

  // Escape closes the menu too.
  await header.getByRole('button', { name: 'Open menu' }).click()
  await expect(menu).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
})
