import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const TOASTER = '[data-sonner-toaster]'

/**
 * axe's best practices about a page's outline (issue 41's moderate
 * findings): headings that skip no level, one h1, landmarks a screen
 * reader can tell apart.
 */
const OUTLINE_RULES = [
  'heading-order',
  'page-has-heading-one',
  'landmark-unique',
  'landmark-one-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
]

/**
 * Runs axe's WCAG 2.1 A and AA rules, and the outline's best practices, on
 * what choose picks and names each violation with the elements it found.
 */
async function expectNoViolations(page: Page, choose: (axe: AxeBuilder) => AxeBuilder, outline = true) {
  // One run: a rule enabled by name runs whatever the tags say (axe's
  // ruleShouldRun), and options must come before withTags, which adds to them.
  const rules = outline ? Object.fromEntries(OUTLINE_RULES.map((id) => [id, { enabled: true }])) : {}
  const { violations } = await choose(new AxeBuilder({ page }).options({ rules }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])).analyze()
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/**
 * The page as it stands, toasts aside, passes axe's WCAG 2.1 A and AA
 * rules and its outline's best practices, and nothing scrolls sideways at
 * the page's width. With a modal open (`outline: false`) the page's own
 * outline is hidden from assistive technology by design: only WCAG counts.
 */
export async function expectAxeClean(page: Page, { outline = true } = {}) {
  // Toasts come and go on a timer: one fading in or out while axe reads
  // the page is drawn at part opacity and measured as too little contrast
  // (the same toast at rest passes). They are left out of the check.
  await expectNoViolations(page, (axe) => axe.exclude(TOASTER), outline)
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
  await expectNoViolations(page, (axe) => axe.include(TOASTER), false)
}
