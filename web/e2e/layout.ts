import { type Page } from '@playwright/test'
import { expectAxeClean } from './axe'
import { expect, test } from './fixtures'

/** At 375 px nothing scrolls sideways and axe finds no WCAG 2.1 AA violations; then back to the desktop size. */
export async function expectUsableAt375(page: Page, shot: string) {
  const desktop = page.viewportSize()!
  await page.setViewportSize({ width: 375, height: 812 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  // The page ends with its content: nothing (such as a scrolled list's
  // screen-reader text) hangs below it as blank scroll space.
  const { scrollHeight, contentHeight } = await page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    contentHeight: Math.max(window.innerHeight, Math.ceil(document.body.getBoundingClientRect().height)),
  }))
  expect(scrollHeight, `${shot} page height at 375 px`).toBeLessThanOrEqual(contentHeight)
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath(`${shot}-375.png`), fullPage: true })
  await page.setViewportSize(desktop)
  await page.screenshot({ path: test.info().outputPath(`${shot}-desktop.png`), fullPage: true })
}
