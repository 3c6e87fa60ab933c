import { appTakesOver, createUserWithCli, expect, holdBack, logInInUi, PASSWORD, test, uniqueEmail } from './fixtures'
import { expectAxeClean } from './axe'

const SLUGS = ['dental', 'medical', 'pt', 'pa', 'pharmacy', 'ot', 'veterinary']

test.describe('route table', () => {
  test('/ redirects to /dental and shows the landing page', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/dental$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Nail Your Dental School Interviews.' })).toBeVisible()
    await expect(page.getByRole('main').getByRole('link', { name: 'Create free account' }).first()).toHaveAttribute('href', '/signup')
    await expect(page.getByRole('heading', { name: 'Everything You Need to Succeed' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Ready to practice?' })).toBeVisible()
    for (const card of ['Profession-Specific Questions', 'Video Practice Sessions', 'Feedback on Every Answer', 'Customizable Scenarios', 'Progress Tracking', 'Secure & Private']) {
      await expect(page.getByRole('heading', { name: card })).toBeVisible()
    }
    for (const step of ['Try One Question Free', 'Choose Your Format', 'Practice Answering Questions', 'Review and Improve']) {
      await expect(page.getByRole('heading', { name: step })).toBeVisible()
    }
  })

  test('the profession segment is case-insensitive', async ({ page }) => {
    await page.goto('/DENTAL')
    await expect(page).toHaveURL(/\/dental$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Nail Your Dental School Interviews.' })).toBeVisible()
    await page.goto('/Medical/pricing')
    await expect(page).toHaveURL(/\/medical\/pricing$/)
    await expect(page.getByRole('heading', { name: 'Pricing' })).toBeVisible()
  })

  test('an unknown profession goes to / and so to /dental', async ({ page }) => {
    await page.goto('/nursing')
    await expect(page).toHaveURL(/\/dental$/)
    await page.goto('/nursing/pricing')
    await expect(page).toHaveURL(/\/dental$/)
  })

  test('any unknown path goes to /dental', async ({ page }) => {
    for (const path of ['/dental/no-such-page', '/medical/resources/nope', '/a/b/c/d']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/dental$/)
    }
  })

  test('all seven professions are known, with hero copy from the API', async ({ page, request }) => {
    const res = await request.get('/api/professions')
    expect(res.ok()).toBe(true)
    const body = (await res.json()) as { professions: { slug: string; heroTitle: string }[] }
    // The web app's routing contract (src/lib/professions.ts) must match the server.
    expect(body.professions.map((p) => p.slug).sort()).toEqual([...SLUGS].sort())
    for (const p of body.professions) {
      await page.goto(`/${p.slug}`)
      await expect(page).toHaveURL(new RegExp(`/${p.slug}$`))
      await expect(page.getByRole('heading', { level: 1, name: p.heroTitle })).toBeVisible()
    }
  })

  test('protected routes send signed-out visitors to /login with from, replacing history', async ({ page }) => {
    const email = uniqueEmail('from')
    await createUserWithCli({ email, name: 'Fran Romero', password: PASSWORD })
    await page.goto('/dental')
    await page.goto('/medical/setup')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible()
    // The protected entry was replaced: Back returns to the page before it.
    await page.goBack()
    await expect(page).toHaveURL(/\/dental$/)
    await page.goForward()
    await expect(page).toHaveURL(/\/login$/)
    // The from state survives: log in and land on the page first asked for.
    await logInInUi(page, email, PASSWORD)
    await expect(page).toHaveURL(/\/medical\/setup$/)
  })

  test('"Loading..." shows while auth state loads', async ({ page }) => {
    const release = await holdBack(page, '**/api/auth/me')
    await page.goto('/dental/dashboard')
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible()
    release()
    await expect(page).toHaveURL(/\/login$/)
  })

  test('every signed-in route redirects when signed out', async ({ page }) => {
    for (const path of ['/dental/dashboard', '/dental/setup', '/dental/session', '/dental/summary', '/dental/admin', '/dental/admin/questions']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/login$/)
    }
  })
})

test.describe('layout', () => {
  test('footer only on the exact profession home; header hidden on /setup', async ({ page }) => {
    await page.goto('/dental')
    await expect(page.getByRole('banner')).toBeVisible()
    const footer = page.getByRole('contentinfo')
    await expect(footer).toBeVisible()
    await expect(footer.getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features')
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`)

    await page.goto('/dental/pricing')
    await expect(page.getByRole('heading', { name: 'Pricing' })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toHaveCount(0)

    const email = uniqueEmail('setup')
    await createUserWithCli({ email, name: 'Sam Setup', password: PASSWORD })
    await page.goto('/login')
    await logInInUi(page, email, PASSWORD)
    await expect(page).toHaveURL(/\/dental\/dashboard$/)
    await expect(page.getByRole('banner')).toBeVisible()
    await page.goto('/dental/setup')
    await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible()
    await expect(page.getByRole('banner')).toHaveCount(0)
    // Opened without a session, the practice pages say so as their heading.
    for (const [path, text] of [
      ['/dental/session', 'No practice session is open.'],
      ['/dental/summary', 'No session to summarize.'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: text })).toBeVisible()
      await expectAxeClean(page)
    }
  })

  test('the profession switcher keeps the rest of the path and is remembered', async ({ page }) => {
    await page.goto('/dental/resources/ethics')
    await page.getByRole('button', { name: /Change profession/ }).click()
    await page.getByRole('menuitemradio', { name: 'Medical' }).click()
    await expect(page).toHaveURL(/\/medical\/resources\/ethics$/)
    expect(await page.evaluate(() => localStorage.getItem('lastProfession'))).toBe('medical')

    // Keyboard: open with Enter, move with arrows, choose with Enter.
    await page.getByRole('button', { name: /Change profession/ }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menu')).toBeVisible()
    await page.getByRole('menuitemradio', { name: 'Pharmacy' }).focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/pharmacy\/resources\/ethics$/)

    // Remembered: profession-less paths resolve to the last profession.
    await page.goto('/pricing')
    await expect(page).toHaveURL(/\/pharmacy\/pricing$/)
    await page.goto('/veterinary')
    // Remembered by the app once it has taken the prerendered page over.
    await appTakesOver(page)
    await expect.poll(() => page.evaluate(() => localStorage.getItem('lastProfession'))).toBe('veterinary')
    await page.goto('/about')
    await expect(page).toHaveURL(/\/veterinary\/about$/)
  })
})
