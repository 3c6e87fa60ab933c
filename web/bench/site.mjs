// The public site's speed and quality (issue 14): the gzipped JavaScript a
// first visit to the landing page downloads, and Lighthouse's four scores
// on three public pages, against the real binary. Prints tables; exits 1
// when a target is missed. Run by `make bench` (mk/site.mk).
import { gzipSync } from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { startServer } from './server.mjs'

// Issue 14 set 100 KB when the browser ran Preact (77 KB measured). React
// DOM, which the browser runs since issue 28 (the same React the unit
// tests run), is 66 KB of gzipped JavaScript by itself, against Preact's
// 10 KB. Since issues 30 and 31 the landing page's HTML also holds an
// example answer's scored card and a working try (its panel), which
// hydrate with the page: the card's code alone is 6.8 KB. The recorder,
// and the student's earlier answers a summary card shows, load only where
// they are used. Measured so: 152.1 KB. The budget keeps 3 KB over that,
// to catch what is added to the landing page's code.
const LANDING_JS_BUDGET_BYTES = 155 * 1024
const PAGES = ['/dental', '/dental/pricing', '/dental/resources/ethics']
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 95 }
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking']

const bin = process.argv[2]
if (!bin) {
  console.error('usage: node bench/site.mjs path/to/whitecoat')
  process.exit(2)
}

/**
 * Every script a first visit to path loads, with its size gzipped as the
 * server stores it (level 9): what the page loads by itself, and the app
 * it loads once the visitor moves the mouse (scripts/load-on-first-input.js).
 */
async function scriptsLoaded(url) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const page = await browser.newPage()
    const scripts = []
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts.push(response.body().then((body) => ({ name: new URL(response.url()).pathname, gzipped: gzipSync(body, { level: 9 }).length })))
    })
    await page.goto(url, { waitUntil: 'networkidle' })
    await page.mouse.move(10, 10)
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' })
    await page.waitForLoadState('networkidle')
    return await Promise.all(scripts)
  } finally {
    await browser.close()
  }
}

const kb = (bytes) => (bytes / 1024).toFixed(1)
let failed = false
const server = await startServer(bin)
try {
  const scripts = await scriptsLoaded(`${server.url}/dental`)
  const total = scripts.reduce((sum, s) => sum + s.gzipped, 0)
  console.log(`\nJavaScript a first visit to /dental loads, the app included once the mouse moves (gzip -9, KB); budget ${kb(LANDING_JS_BUDGET_BYTES)}`)
  for (const s of scripts.sort((a, b) => b.gzipped - a.gzipped)) console.log(`  ${kb(s.gzipped).padStart(6)}  ${s.name}`)
  console.log(`  ${kb(total).padStart(6)}  total${total > LANDING_JS_BUDGET_BYTES ? '  OVER BUDGET' : ''}`)
  if (total > LANDING_JS_BUDGET_BYTES) failed = true

  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS })
  try {
    const categories = Object.keys(TARGETS)
    console.log(`\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} (mobile, simulated throttling); targets: ${categories.map((c) => `${c} ≥ ${TARGETS[c]}`).join(', ')}`)
    console.log(`  ${'page'.padEnd(26)}${categories.map((c) => c.padStart(16)).join('')}`)
    for (const path of PAGES) {
      const { lhr } = await lighthouse(`${server.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories })
      const cells = categories.map((c) => {
        const score = Math.round((lhr.categories[c].score ?? 0) * 100)
        if (score < TARGETS[c]) failed = true
        return `${score}${score < TARGETS[c] ? ' MISS' : ''}`.padStart(16)
      })
      console.log(`  ${path.padEnd(26)}${cells.join('')}`)
      for (const c of categories) {
        if (Math.round((lhr.categories[c].score ?? 0) * 100) >= TARGETS[c]) continue
        for (const ref of lhr.categories[c].auditRefs) {
          const audit = lhr.audits[ref.id]
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) console.log(`      ${c}: ${audit.id} (${audit.displayValue ?? audit.score})`)
        }
      }
    }
  } finally {
    chrome.kill()
  }
} finally {
  server.close()
}
process.exit(failed ? 1 : 0)
