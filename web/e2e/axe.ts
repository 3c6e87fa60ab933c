import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * The page as it stands, toasts aside, passes axe's WCAG 2.1 A and AA rules, each
 * violation named with the elements it found, and nothing scrolls
 * sideways at the page's width.
 */
export async function expectAxeClean(page: Page) {
  // Toasts come and go on a timer: one fading in or out while axe reads
  // the page is drawn at part opacity and measured as too little contrast
  // (the same toast at rest passes). They are left out of the check.
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('[data-sonner-toaster]')
    .analyze()
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(page.viewportSize()!.width)
}

/**
 * The toasts on screen, once they have finished arriving, pass the same
 * rules: what expectAxeClean leaves out is checked here, at rest.
 */
export async function expectToastsAxeClean(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect instanceof KeyframeEffect && a.effect.target instanceof Element && a.effect.target.closest('[data-sonner-toaster]'))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .include('[data-sonner-toaster]')
    .analyze()
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}
