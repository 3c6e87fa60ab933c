import { expect, test } from './fixtures'

/**
 * A visitor who is not signed in sees no error in the browser's console on
 * any page they can reach (issue 41): the question every page asks first,
 * who is signed in, is answered, not refused with a 401. The pages that
 * need an account send the visitor to log in, also without an error.
 */
const PROFESSION_PAGES = ['', '/pricing', '/resources', '/resources/ethics', '/resources/communication', '/resources/pitfalls', '/about', '/privacy', '/terms']
const ACCOUNT_PAGES = ['/login', '/signup', '/forgot-password', '/reset-password?token=x', '/verify-email?token=x']
const SIGNED_IN_PAGES = ['/dental/dashboard', '/dental/history', '/dental/progress', '/dental/setup', '/dental/account']

test('no signed-out page logs a console error', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text()}`)
  })
  for (const path of [...PROFESSION_PAGES.map((p) => `/dental${p}`), ...ACCOUNT_PAGES, ...SIGNED_IN_PAGES]) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  }
  expect(errors).toEqual([])
})
