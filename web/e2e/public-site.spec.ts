import { expectAxeClean } from './axe'
import { appTakesOver, createUserWithCli, expect, holdBack, linkIn, logInInUi, PASSWORD, signUpInUi, test, uniqueEmail, waitForMail } from './fixtures'

/**
 * The public site as a visitor sees it, for two professions: every page
 * shows its own words (nothing "coming soon") and passes axe; the
 * downloads are PDFs; and each guide's button opens setup with its kind of
 * question chosen. The layout is the same for every profession, so one is
 * looked at on a phone as well (overflow.spec checks every page fits
 * 375 px); the other is read on the desktop for its own words.
 */
const PROFESSIONS = ['dental', 'veterinary'] as const
const PHONE = { width: 375, height: 812 }
const DESKTOP = { width: 1280, height: 900 }
const VIEWPORTS: Record<(typeof PROFESSIONS)[number], { width: number; height: number }[]> = { dental: [PHONE, DESKTOP], veterinary: [DESKTOP] }
const PAGES: { path: string; heading: RegExp }[] = [
  { path: '', heading: /Interviews\.$/ },
  { path: '/pricing', heading: /^Pricing$/ },
  { path: '/resources', heading: /^Resources$/ },
  { path: '/resources/ethics', heading: /^Ethical Frameworks Cheat Sheet$/ },
  { path: '/resources/communication', heading: /^STAR \/ SPIKES Communication$/ },
  { path: '/resources/pitfalls', heading: /^Common Pitfalls & How to Avoid Them$/ },
  { path: '/about', heading: /^About/ },
  { path: '/privacy', heading: /^Privacy Policy$/ },
  { path: '/terms', heading: /^Terms of Service$/ },
]

for (const slug of PROFESSIONS) {
  for (const { path, heading } of PAGES) {
    const widths = VIEWPORTS[slug].map((v) => `${v.width} px`).join(' and ')
    test(`/${slug}${path} shows its content at ${widths}, axe-clean`, async ({ page }) => {
      for (const viewport of VIEWPORTS[slug]) {
        await page.setViewportSize(viewport)
        await page.goto(`/${slug}${path}`)
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
        await expect(page.locator('[aria-busy="true"], [role="status"]:has-text("Loading")')).toHaveCount(0)
        await expect(page.locator('main')).not.toContainText(/coming soon/i)
        await expectAxeClean(page)
        await page.screenshot({ path: test.info().outputPath(`${slug}${path.replaceAll('/', '-')}-${viewport.width}.png`), fullPage: true })
      }
    })
  }
}

test('the resources page offers three PDFs, and each is one', async ({ page, request }) => {
  await page.goto('/veterinary/resources')
  const downloads = page.getByRole('link', { name: /^Download .* \(PDF, \d+ pages?, \d+ KB\)$/ })
  await expect(downloads).toHaveCount(3)
  for (const href of await downloads.evaluateAll((links) => links.map((a) => a.getAttribute('href')!))) {
    const res = await request.get(href)
    expect(res.status(), href).toBe(200)
    expect(res.headers()['content-type']).toBe('application/pdf')
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-')
  }
  await expect(page.getByRole('complementary', { name: 'Office hours' }).getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/)
})

test('without JavaScript a guide is still its own page', async ({ request }) => {
  const html = await (await request.get('/medical/resources/ethics')).text()
  expect(html).toMatch(/<title>Ethical Frameworks Cheat Sheet · Whitecoat<\/title>/)
  expect(html).toMatch(/<meta name="description" content="[^"]{40,}" \/>/)
  expect(html).toMatch(/<div id="root">.*<h1[^>]*>Ethical Frameworks Cheat Sheet<\/h1>.*Beneficence/s)
})

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  /**
   * The public pages are prerendered: their words, the plans and the
   * operator's addresses are in the HTML the server sends, and nothing
   * waits for a script (issue 28).
   */
  for (const { path, heading } of PAGES) {
    test(`/dental${path} shows its content`, async ({ page }) => {
      await page.goto(`/dental${path}`)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.locator('[aria-busy="true"], [role="status"]:has-text("Loading")')).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Pricing' }).first()).toHaveAttribute('href', '/dental/pricing')
    })
  }

  test('the pricing page states its plans, its questions and where to write', async ({ page }) => {
    await page.goto('/dental/pricing')
    await expect(page.getByRole('heading', { name: 'Premium' })).toBeVisible()
    await expect(page.getByText('$29', { exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Request by email' })).toHaveAttribute('href', /^mailto:support@whitecoat\.app\?subject=/)
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible()
    await page.getByText('Can I get a refund?').click()
    await expect(page.getByText(/within 7 days/).first()).toBeVisible()
  })
})

test('a prerendered page is hydrated, not drawn again, and then moves within the app', async ({ page }) => {
  await page.addInitScript(() => {
    const removed: string[] = []
    Object.assign(window, { removedNodes: removed })
    new MutationObserver((records) => {
      for (const r of records) r.removedNodes.forEach((n) => removed.push(`${n.nodeName} ${n.textContent?.slice(0, 40)}`))
    }).observe(document, { childList: true, subtree: true })
    // The heading as the HTML brought it, before any script ran.
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') Object.assign(window, { parsedHeading: document.querySelector('h1') })
    })
  })
  for (const { path, heading } of PAGES) {
    await page.goto(`/veterinary${path}`)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    // The app, loaded when the visitor acts, hydrates the page.
    await appTakesOver(page)
    const { removed, sameHeading } = await page.evaluate(() => {
      const w = window as unknown as { removedNodes: string[]; parsedHeading: Element | null }
      return { removed: w.removedNodes, sameHeading: w.parsedHeading !== null && w.parsedHeading === document.querySelector('h1') }
    })
    expect(removed, `/veterinary${path}: nodes the app removed`).toEqual([])
    expect(sameHeading, `/veterinary${path}: the heading is the one the HTML brought`).toBe(true)
  }
  await page.evaluate(() => Object.assign(window, { samePage: true }))
  await page.getByRole('link', { name: 'About' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: /^About/ })).toBeVisible()
  await expect(page).toHaveTitle(/^About/)
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
})

test("each guide's button opens setup with its kind of question chosen", async ({ page }) => {
  const user = { name: 'Gia Guide', email: uniqueEmail('guide'), password: PASSWORD }
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()

  for (const [guide, button, focus] of [
    ['ethics', 'Practice an ethics scenario', 'Ethical'],
    ['communication', 'Practice a communication scenario', 'Communication'],
    ['pitfalls', 'Practice avoiding pitfalls', 'Behavioral'],
  ] as const) {
    await page.goto(`/dental/resources/${guide}`)
    await page.getByRole('link', { name: button }).click()
    await expect(page).toHaveURL(`/dental/setup?focus=${focus}`)
    await expect(page.getByLabel('Question focus')).toHaveValue(focus)
    await expect(page.getByRole('checkbox', { name: /Start with the Big 3/ })).not.toBeChecked()
  }

  // The session it starts asks the questions the guide prepared for.
  await page.goto('/dental/resources/ethics')
  await page.getByRole('link', { name: 'Practice an ethics scenario' }).click()
  await page.getByRole('radio', { name: /Audio/ }).check()
  await page.getByRole('button', { name: 'Start Interview' }).click()
  await expect(page).toHaveURL(/\/dental\/session\?id=/)
  const id = new URL(page.url()).searchParams.get('id')!
  const { session } = (await (await page.request.get(`/api/practice/sessions/${id}`)).json()) as { session: { items: { subtag: string }[] } }
  expect(session.items.map((i) => i.subtag)).toEqual(Array(5).fill('Ethical'))
})

test('a visitor who scrolled down a guide before the app took over stays where they were, and its last link works', async ({ page }) => {
  // The app's script is held back until the visitor has scrolled, as on a
  // slow connection or a busy phone.
  const release = await holdBack(page, '**/assets/load-on-first-input-*.js')
  await page.goto('/dental/resources/ethics', { waitUntil: 'commit' })
  const link = page.getByRole('link', { name: 'Practice an ethics scenario' })
  await link.scrollIntoViewIfNeeded()
  const scrolled = await page.evaluate(() => window.scrollY)
  expect(scrolled).toBeGreaterThan(1000)

  release()
  // The visitor acts (the mouse moves), and the app takes the page over.
  await appTakesOver(page)
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled)
  await link.click()
  await expect(page).toHaveURL(/\/login$/)
})

test('a public page loads the app once the visitor acts, and a press made before it is ready is made again, once', async ({ page }) => {
  await page.setViewportSize(PHONE)
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.goto('/dental', { waitUntil: 'networkidle' })
  // Read without acting: the page is its HTML, and loads nothing else.
  await expect(page.getByRole('heading', { level: 1, name: /Interviews\.$/ })).toBeVisible()
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/load-on-first-input-[0-9a-f]{8}\.js$/)])
  await expect(page.locator('html')).not.toHaveAttribute('data-app')

  // The first act is two presses on the menu toggle, while the app's code
  // is still on its way: nothing opens yet, and nothing is lost.
  const release = await holdBack(page, '**/assets/index-*.js')
  const toggle = page.getByRole('button', { name: 'Open menu' })
  await toggle.click()
  await toggle.click()
  await expect.poll(() => scripts.some((s) => /^\/assets\/index-/.test(s))).toBe(true)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  release()
  await expect(page.locator('html')).toHaveAttribute('data-app', 'ready')
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Log in' })).toBeVisible()
})

test('before the app loads, a visitor is offered to log in and a signed-in student is not', async ({ page }) => {
  await page.setViewportSize(DESKTOP)
  const logIn = page.getByRole('banner').getByRole('link', { name: 'Log in' })
  await page.goto('/dental', { waitUntil: 'networkidle' })
  await expect(logIn).toBeVisible()
  await expect(logIn).toHaveAttribute('href', '/login')
  await expect(page.locator('html')).not.toHaveAttribute('data-app')

  const email = uniqueEmail('signed-in-public')
  await createUserWithCli({ email, name: 'Sam Signed', password: PASSWORD })
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
  // The server saw the session cookie: the page's signed-out buttons hold
  // their place unseen until the app knows the student.
  await page.goto('/dental', { waitUntil: 'networkidle' })
  await expect(page.locator('html')).not.toHaveAttribute('data-app')
  await expect(logIn).toBeHidden()
  await appTakesOver(page)
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await expect(logIn).toHaveCount(0)
})
