import type { Page } from '@playwright/test'
import { createUserWithCli, enrolAdminInUi, expect, logInInUi, PASSWORD, test, uniqueEmail } from './fixtures'
import { practiseThroughApi, speech } from './practice-api'

// Issue 30 item 2: every page fits a 375 px phone with the longest things a
// student types — a saved title near the limit, a long name, a long email.
// A page fails when it scrolls sideways or when any element reaches past
// the screen's edge outside a box that scrolls or clips it on purpose.

const WIDTH = 375
const LONG_TITLE = 'Mock interview before my Harvard School of Dental Medicine day, take three'
const LONG_NAME = 'Maximiliana Alexandra Konstantinopoulou-Featherstonehaugh'
const longEmail = (tag: string) => uniqueEmail(`${tag}-maximiliana.konstantinopoulou.featherstonehaugh`)

test.use({ viewport: { width: WIDTH, height: 812 }, isMobile: true, hasTouch: true })

const PUBLIC_PAGES = ['', '/pricing', '/resources', '/resources/ethics', '/resources/communication', '/resources/pitfalls', '/about', '/privacy', '/terms']
const ACCOUNT_PAGES = ['/login', '/signup', '/forgot-password', '/reset-password?token=x', '/verify-email?token=x']

/** What reaches past the screen: the page's own width, then each element outside a scrolling or clipping box. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement
    const found: string[] = []
    if (root.scrollWidth > root.clientWidth) found.push(`page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth}`)
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true
      }
      return false
    }
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if (r.right <= root.clientWidth + 0.5 && r.left >= -0.5) continue
      const style = getComputedStyle(el)
      // Hidden, or drawn for screen readers only (clipped to nothing).
      if (style.visibility === 'hidden' || style.clip !== 'auto' || style.clipPath !== 'none' || clipped(el)) continue
      const text = (el.textContent ?? '').trim().slice(0, 40)
      found.push(`<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> ${Math.round(r.left)}–${Math.round(r.right)} px "${text}"`)
    }
    return found
  })
}

async function expectFits(page: Page, path: string, ready: () => Promise<void>) {
  await page.goto(path)
  await ready()
  expect.soft(await overflow(page), `${path} at ${WIDTH} px`).toEqual([])
}

const mainHeading = (page: Page) => () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()

test('every public page of a profession fits 375 px', async ({ page }) => {
  test.setTimeout(120_000)
  for (const slug of ['dental', 'medical']) {
    for (const rest of PUBLIC_PAGES) await expectFits(page, `/${slug}${rest}`, mainHeading(page))
  }
  for (const path of ACCOUNT_PAGES) await expectFits(page, path, mainHeading(page))
})

test('a student with a long name, email and saved title: every signed-in page fits 375 px', async ({ page }) => {
  test.setTimeout(180_000)
  const email = longEmail('wide')
  await createUserWithCli({ email, name: LONG_NAME, password: PASSWORD })
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('heading', { name: `Welcome, ${LONG_NAME}` })).toBeVisible()
  const sessionId = await practiseThroughApi(page.request, [
    { question: 'Why do you want to become a dentist?', audio: speech('I want to become a dentist because I enjoy helping people.') },
  ])
  const saved = await page.request.post(`/api/practice/sessions/${sessionId}/save`, { data: { title: LONG_TITLE } })
  expect(saved.status()).toBe(201)
  const { saved: copy } = (await saved.json()) as { saved: { id: string } }

  await expectFits(page, '/dental/dashboard', () => expect(page.getByText(LONG_TITLE)).toBeVisible())
  await expectFits(page, '/dental/history', () => expect(page.getByText(LONG_TITLE)).toBeVisible())
  await expectFits(page, '/dental/progress', () => expect(page.getByRole('heading', { name: 'Trends' })).toBeVisible())
  await expectFits(page, `/dental/summary?saved=${copy.id}`, () => expect(page.getByText(LONG_TITLE).first()).toBeVisible())
  await expectFits(page, '/dental/setup', () => expect(page.getByRole('button', { name: 'Start Interview' })).toBeVisible())
  for (const rest of PUBLIC_PAGES) await expectFits(page, `/dental${rest}`, mainHeading(page))
})

test('an admin among long names and emails: the admin pages fit 375 px', async ({ page }) => {
  test.setTimeout(120_000)
  await createUserWithCli({ email: longEmail('listed'), name: LONG_NAME, password: PASSWORD })
  const email = longEmail('admin')
  await createUserWithCli({ email, name: LONG_NAME, password: PASSWORD, admin: true })
  await enrolAdminInUi(page, email, PASSWORD)
  await expectFits(page, '/dental/admin', () => expect(page.getByRole('table', { name: /^Users/ }).getByText(LONG_NAME).first()).toBeVisible())
  await expectFits(page, '/dental/admin/questions', () => expect(page.getByRole('table', { name: /^Questions/ })).toBeVisible())
})
