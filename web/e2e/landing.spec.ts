import { expect, test } from './fixtures'

interface Profession {
  slug: string
  displayName: string
  heroTitle: string
  defaultQuestion: string
  interviewFormats: string
  tipsIntro: string
  tips: { title: string; body: string }[]
}

const SLUGS = ['dental', 'medical', 'pt', 'pa', 'pharmacy', 'ot', 'veterinary']
/** The pages whose screenshots we keep, at desktop and phone widths. */
const SCREENSHOTS = ['dental', 'pharmacy', 'veterinary']
const WIDTHS = [1280, 375]

for (const slug of SLUGS) {
  test(`/${slug} shows its own hero, default question, interview formats and tips`, async ({ page, request }, testInfo) => {
    const res = await request.get(`/api/professions/${slug}`)
    expect(res.ok()).toBe(true)
    const p = (await res.json()) as Profession
    expect(p.tips.length).toBeGreaterThan(0)

    const widths = SCREENSHOTS.includes(slug) ? WIDTHS : [1280]
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`/${slug}`)
      const hero = page.getByRole('heading', { level: 1, name: p.heroTitle })
      await expect(hero).toBeInViewport()
      // The question is quoted under its heading; what can be pressed is a real link to practice it.
      const first = page.getByRole('region', { name: 'The question to expect first' })
      await expect(first.getByText(`“${p.defaultQuestion}”`)).toBeVisible()
      await expect(first.getByRole('link', { name: 'Practice this question' })).toHaveAttribute('href', '/signup')
      await expect(page.getByText(p.interviewFormats)).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: `${p.displayName} interview tips` })).toBeVisible()
      await expect(page.getByText(p.tipsIntro)).toBeVisible()
      for (const tip of p.tips) {
        await expect(page.getByRole('heading', { level: 3, name: tip.title })).toBeVisible()
        await expect(page.getByText(tip.body)).toBeVisible()
      }
      // Nothing may widen the page past the viewport (a sideways scroll on phones).
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(width)

      if (SCREENSHOTS.includes(slug)) {
        await page.screenshot({ path: testInfo.outputPath(`landing-${slug}-${width}.png`), fullPage: true })
      }
    }
  })
}

test('the pricing FAQ is a styled disclosure with a chevron, opened from the keyboard', async ({ page }) => {
  await page.goto('/dental/pricing')
  const faq = page.getByRole('region', { name: 'Frequently asked questions' })
  const summary = faq.locator('summary').first()
  await expect(summary).toBeVisible()
  // No browser triangle: the summary is no list item and draws no marker.
  expect(await summary.evaluate((el) => [getComputedStyle(el).display, getComputedStyle(el).listStyleType])).toEqual(['flex', 'none'])
  await expect(summary.locator('svg')).toBeVisible()
  const details = faq.locator('details').first()
  await expect(details).not.toHaveAttribute('open')
  await summary.focus()
  await page.keyboard.press('Enter')
  await expect(details).toHaveAttribute('open')
  await page.keyboard.press('Space')
  await expect(details).not.toHaveAttribute('open')
})
