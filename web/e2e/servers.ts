import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import type { ServerState } from './fixtures'
import { freePort, stop, waitReady } from './global-setup'

/** A whitecoat server a spec started for itself, with settings of its own. */
export interface OwnServer extends ServerState {
  close(): Promise<void>
}

/**
 * Starts the binary like global setup does, on its own SQLite database,
 * with env added (payments settings, a public BASE_URL...). listenURL is
 * where the test reaches it; BASE_URL may name another host.
 */
export async function startWhitecoat(env: Record<string, string>): Promise<OwnServer & { listenURL: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'whitecoat-e2e-own-'))
  const port = await freePort()
  const listenURL = `http://127.0.0.1:${port}`
  const state = { baseURL: env.BASE_URL ?? listenURL, databaseURL: join(dir, 'whitecoat.db'), dataDir: join(dir, 'data') }
  const logPath = join(dir, 'server.log')
  const log = createWriteStream(logPath)
  const server = spawn(process.env.WHITECOAT_BIN!, ['serve'], {
    env: {
      ...process.env,
      ADDR: `127.0.0.1:${port}`,
      BASE_URL: state.baseURL,
      DATA_DIR: state.dataDir,
      DATABASE_URL: state.databaseURL,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_IP: '1000',
      SPEECH_ENGINE: 'local',
      // Off unless a spec turns it on: it cannot run next to a Stripe key.
      DEV_CHECKOUT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stdout?.pipe(log)
  server.stderr?.pipe(log)
  let exited: number | null | undefined
  server.on('exit', (code) => (exited = code))
  try {
    await waitReady(`${listenURL}/readyz`, () => exited, 30_000)
  } catch (err) {
    await stop(server)
    throw new Error(`${(err as Error).message}\n--- whitecoat output ---\n${existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''}`)
  }
  return {
    ...state,
    listenURL,
    close: async () => {
      await stop(server)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A browser context and page talking to a server a spec started. */
export async function pageOn(browser: Browser, server: OwnServer & { listenURL: string }) {
  const context = await browser.newContext({ baseURL: server.listenURL })
  return { context, page: await context.newPage() }
}

/** The stripe-mock binary the Makefile installs (mk/billing.mk), or null. */
function stripeMockBinary(): string | null {
  const candidates = [process.env.GOBIN, process.env.GOPATH && join(process.env.GOPATH, 'bin'), join(homedir(), 'go', 'bin')]
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, 'stripe-mock'))) return join(dir, 'stripe-mock')
  }
  return null
}

/**
 * Starts stripe-mock on ports the system chooses and resolves once it
 * prints its HTTP address; null when it is not installed. Left to its
 * defaults it also listens for HTTPS on port 12112, so it exited at once
 * whenever the Go tests' stripe-mock was running (see
 * internal/billing/stripemock).
 */
export async function startStripeMock(): Promise<{ url: string; close(): Promise<void> } | null> {
  const bin = stripeMockBinary()
  if (!bin) return null
  const proc: ChildProcess = spawn(bin, ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  const address = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString()
      const found = /^Listening for HTTP at address: (\S+)$/m.exec(printed)
      if (found) resolve(found[1]!)
    }
    // It logs every request it serves: both streams are read to the end,
    // or a full pipe would stall it.
    proc.stdout!.on('data', read)
    proc.stderr!.on('data', read)
    proc.on('exit', (code) => reject(new Error(`stripe-mock exited (${code}) before it listened:\n${printed}`)))
    setTimeout(() => reject(new Error(`stripe-mock did not listen within 60 s:\n${printed}`)), 60_000).unref()
  })
  try {
    return { url: `http://${await address}`, close: () => stop(proc) }
  } catch (err) {
    await stop(proc)
    throw err
  }
}
