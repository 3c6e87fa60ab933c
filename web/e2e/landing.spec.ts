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
      // The question is quoted under its heading; a visitor tries it there, without an account.
      const first = page.getByRole('region', { name: 'The question to expect first' })
      await expect(first.getByText(`“${p.defaultQuestion}”`)).toBeVisible()
      await expect(first.getByRole('region', { name: 'Try it now, no account needed' }).getByRole('button', { name: 'Record your answer' })).toBeVisible()
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

test('/dental shows an example answer scored by the rubric engine, in the practice summary\'s result card, before any script runs', async ({ browser, request }, testInfo) => {
  const res = await request.get('/api/tryout/examples/dental')
  expect(res.ok()).toBe(true)
  const example = (await res.json()) as { question: string; transcript: string; feedback: { overallScore: number; suggestions: string[]; summary: string } }
  // Prerendered: the card is in the page's HTML, not drawn by the app later.
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ javaScriptEnabled })
    const page = await context.newPage()
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/dental')
      const section = page.getByRole('region', { name: 'What your feedback looks like' })
      const card = section.getByRole('article', { name: example.question })
      await expect(card.getByText(`Score: ${example.feedback.overallScore}`)).toBeVisible()
      // A perfect score is offered no change that would lift it (issue 39 item 6).
      const lift = card.getByRole('group', { name: 'The change that would lift this score most' })
      if (example.feedback.overallScore >= 100) await expect(lift).toHaveCount(0)
      else await expect(lift.getByText(example.feedback.suggestions[0])).toBeVisible()
      await expect(card.getByText(example.transcript)).toBeVisible()
      if (javaScriptEnabled) {
        // The details open from the keyboard, as on the summary: the press
        // (the visitor's first act, which loads the app) is held until the
        // app has hydrated the prerendered button, then made again.
        const details = card.getByRole('button', { name: 'Scores, feedback and evidence' })
        await details.focus()
        await page.keyboard.press('Enter')
        await expect(details).toHaveAttribute('aria-expanded', 'true')
        await expect(card.getByText(example.feedback.summary)).toBeVisible()
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
        expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(width)
        await section.screenshot({ path: testInfo.outputPath(`landing-example-${width}.png`) })
      }
    }
    await context.close()
  }
})

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
