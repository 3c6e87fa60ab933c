import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const TOASTER = '[data-sonner-toaster]'

/** Runs axe's WCAG 2.1 A and AA rules on what choose picks and names each violation with the elements it found. */
async function expectNoViolations(page: Page, choose: (axe: AxeBuilder) => AxeBuilder) {
  const { violations } = await choose(new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])).analyze()
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/**
 * The page as it stands, toasts aside, passes axe's WCAG 2.1 A and AA
 * rules, and nothing scrolls sideways at the page's width.
 */
export async function expectAxeClean(page: Page) {
  // Toasts come and go on a timer: one fading in or out while axe reads
  // the page is drawn at part opacity and measured as too little contrast
  // (the same toast at rest passes). They are left out of the check.
  await expectNoViolations(page, (axe) => axe.exclude(TOASTER))
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(page.viewportSize()!.width)
}

/**
 * The toasts on screen, once they have finished arriving, pass the same
 * rules: what expectAxeClean leaves out is checked here, at rest.
 */
export async function expectToastsAxeClean(page: Page) {
  await page.evaluate(
    (toaster) =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect instanceof KeyframeEffect && a.effect.target instanceof Element && a.effect.target.closest(toaster))
          .map((a) => a.finished.catch(() => undefined)),
      ),
    TOASTER,
  )
  await expectNoViolations(page, (axe) => axe.include(TOASTER))
}
