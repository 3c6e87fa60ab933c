import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { freshCode } from './totp'

export interface Mail {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  receivedAt: string
}

function env(name: string): string {
  const v = process.env[name]
  if (!v) throw new Error(`${name} is not set: is e2e/global-setup.ts configured?`)
  return v
}

/** Every mail the test SMTP server received for `address`, oldest first. */
export function mailsFor(address: string): Mail[] {
  const dir = env('E2E_MAIL_DIR')
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      try {
        return JSON.parse(readFileSync(join(dir, f), 'utf8')) as Mail
      } catch {
        return null // still being written
      }
    })
    .filter((m): m is Mail => !!m && m.to.includes(address.toLowerCase()))
}

/** Waits for the `n`-th (1-based) mail to `address` whose subject or text matches `match`. */
export async function waitForMail(address: string, match: RegExp, n = 1, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = mailsFor(address).filter((m) => match.test(m.subject) || match.test(m.text))
    if (found.length >= n) return found[n - 1]!
    if (Date.now() > deadline) {
      const seen = mailsFor(address).map((m) => m.subject)
      throw new Error(`no mail #${n} matching ${match} for ${address} within ${timeoutMs} ms (got: ${JSON.stringify(seen)})`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The first link in a mail that goes to `page` (e.g. "verify-email") on the app. */
export function linkIn(mail: Mail, page: string): string {
  const base = env('E2E_BASE_URL').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const re = new RegExp(`${base}/${page}\\?token=[^\\s"'<>]+`)
  const found = mail.text.match(re)?.[0] ?? mail.html.match(re)?.[0]?.replace(/&amp;/g, '&')
  if (!found) throw new Error(`no ${page} link in mail "${mail.subject}":\n${mail.text}`)
  return found
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.test`
}

/** Where a whitecoat server keeps its state; the global one unless a spec started its own. */
export interface ServerState {
  baseURL: string
  databaseURL: string
  dataDir: string
}

/** Runs the server's command line (`whitecoat ARGS`) against the test database (or server's); stdin is written to it. */
function runCli(args: string[], stdin: string, server?: ServerState): Promise<string> {
  return new Promise((done, fail) => {
    const proc = spawn(env('WHITECOAT_BIN'), args, {
      env: {
        ...process.env,
        DATABASE_URL: server?.databaseURL ?? env('E2E_DATABASE_URL'),
        DATA_DIR: server?.dataDir ?? env('E2E_DATA_DIR'),
        BASE_URL: server?.baseURL ?? env('E2E_BASE_URL'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()))
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()))
    proc.on('error', fail)
    proc.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`whitecoat ${args.slice(0, 2).join(' ')} exited ${code}: ${out}`))))
    proc.stdin.end(stdin)
  })
}

/** Runs `whitecoat user create ... --password-stdin [--admin]`. */
export function createUserWithCli(opts: { email: string; name: string; password: string; admin?: boolean }, server?: ServerState): Promise<string> {
  const args = ['user', 'create', '--email', opts.email, '--name', opts.name, '--password-stdin']
  if (opts.admin) args.push('--admin')
  return runCli(args, `${opts.password}\n`, server)
}

/** Runs `whitecoat questions ARGS…` (export, import) against the suite's database. */
export function questionsCli(args: string[]): Promise<string> {
  return runCli(['questions', ...args], '')
}

/** Runs `whitecoat user grant-pass EMAIL`: a year of Premium, as an operator would grant it. */
export function grantPassWithCli(email: string): Promise<string> {
  return runCli(['user', 'grant-pass', email], '')
}

/**
 * Signs up in the UI and, since sign-up signs nobody in (it answers alike
 * for registered emails), waits for the verification email, then logs in
 * from the check-your-email step, landing on the dashboard unverified.
 */
export async function signUpInUi(page: Page, user: { name: string; email: string; password: string }) {
  await page.goto('/signup')
  await page.getByLabel('Name').fill(user.name)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeFocused()
  await expect(page.getByText(user.email)).toBeVisible()
  await waitForMail(user.email, /verif/i)
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await logInInUi(page, user.email, user.password)
  await expect(page).toHaveURL(/\/dental\/dashboard$/)
}

/** signUpInUi, then the verification link from the email, confirmed: the page ends on the verified dashboard. */
export async function signUpVerifiedInUi(page: Page, user: { name: string; email: string; password: string }) {
  await signUpInUi(page, user)
  await page.goto(linkIn(await waitForMail(user.email, /verif/i), 'verify-email'))
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${user.name}` })).toBeVisible()
}

/**
 * An admin's first login: password, then the enrolment step, with the
 * authenticator app played by totp(). Returns the secret and the recovery
 * codes; the page ends on the admin dashboard.
 */
export async function enrolAdminInUi(page: Page, email: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto('/login')
  await logInInUi(page, email, password)
  await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible()
  const href = await page.getByRole('link', { name: 'open it in the app' }).getAttribute('href')
  const secret = new URL(href!).searchParams.get('secret')!
  const field = page.getByLabel('6-digit code from the app')
  await expect(field).toBeFocused()
  await field.fill(await freshCode(secret))
  await page.getByRole('button', { name: 'Turn on second factor' }).click()
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused()
  const recoveryCodes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()
  await page.getByRole('button', { name: 'I have saved them, continue' }).click()
  await expect(page).toHaveURL(/\/dental\/admin$/)
  return { secret, recoveryCodes }
}

/** The code step of an enrolled admin's login, with a code the server has not seen. */
export async function passCodeInUi(page: Page, secret: string) {
  const field = page.getByLabel('Authentication code')
  await expect(field).toBeFocused()
  await field.fill(await freshCode(secret))
  await page.getByRole('button', { name: 'Continue' }).click()
}

export async function logInInUi(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/** A verified student on the free trial, nothing practised, signed in on page (on server's database, or the suite's). */
export async function trialStudent(page: Page, tag: string, server?: ServerState) {
  const email = uniqueEmail(tag)
  await createUserWithCli({ email, name: 'Tara Trial', password: PASSWORD }, server)
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByRole('heading', { name: 'Welcome, Tara Trial' })).toBeVisible()
  return email
}

export const PASSWORD = 'practice makes confident'

/** Holds back the page's requests matching `url` until the returned function is called. */
export async function holdBack(page: Page, url: string): Promise<() => void> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(url, async (route) => {
    await released
    await route.continue()
  })
  return release
}

/**
 * The visitor acts on the page (the mouse moves over it) and the app takes
 * it over: a prerendered public page loads its app only once the visitor
 * first acts (scripts/load-on-first-input.js), and the app marks
 * <html data-app="ready"> once its first render is on the screen. A spec
 * that relies on what only the app does, without pressing anything
 * first, waits for this as a visitor's move would bring it.
 */
export async function appTakesOver(page: Page) {
  // The mouse moves again while nothing happens: the page's loader may
  // not have run yet when it first moved (a script held back, a busy CPU).
  let step = 0
  await expect(async () => {
    step = (step % 20) + 1
    await page.mouse.move(step, step)
    await expect(page.locator('html')).toHaveAttribute('data-app', 'ready', { timeout: 1000 })
  }).toPass()
}

/**
 * Playwright's test with baseURL pointing at the binary started by global
 * setup. Every test also fails on uncaught page errors, on resources or
 * scripts refused by the server's Content-Security-Policy, and on React's
 * word that a prerendered page did not hydrate as it was rendered.
 */
export const test = base.extend<{ pageProblems: string[] }>({
  baseURL: async ({}, use) => {
    await use(env('E2E_BASE_URL'))
  },
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`))
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(`csp: ${msg.text()}`)
        if (/hydrat|Minified React error #4(18|19|2[0-9])/i.test(msg.text())) problems.push(`hydration: ${msg.text()}`)
      })
      await use(problems)
      expect(problems, 'the page reported errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
