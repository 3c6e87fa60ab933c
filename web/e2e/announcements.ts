import { type Page } from '@playwright/test'

/**
 * Keeps every text the session's status region says, in order, however
 * briefly: the countdown is on screen for only 3 seconds, and "Recording
 * started" only until the answer clock speaks, which a busy machine can let
 * pass between two checks. Call before the page loads.
 */
export async function keepAnnouncements(page: Page) {
  await page.addInitScript(() => {
    const said: string[] = []
    ;(window as unknown as { said: string[] }).said = said
    new MutationObserver(() => {
      const text = document.querySelector('main [role="status"].sr-only')?.textContent ?? ''
      if (text && said[said.length - 1] !== text) said.push(text)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
}

/** What the status region has said since the page loaded (keepAnnouncements). */
export async function announcements(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { said: string[] }).said])
}
