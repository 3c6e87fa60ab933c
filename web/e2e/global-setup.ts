import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { simpleParser, type AddressObject } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * Starts, for the whole run:
 *  1. a real SMTP server (smtp-server) on a free localhost port that writes
 *     every message it receives as JSON into E2E_MAIL_DIR;
 *  2. the real binary (`whitecoat serve`) on a free port against a SQLite
 *     database in a fresh temporary directory, sending mail to (1).
 * The server transcribes with the local engine and stops answers at 10 s
 * (ANSWER_LIMIT), for e2e/practice.spec.ts.
 * Tests read E2E_BASE_URL, E2E_MAIL_DIR, E2E_DATABASE_URL and WHITECOAT_BIN.
 * The returned function tears everything down and deletes the directory.
 */
export default async function globalSetup() {
  const bin = resolve(process.env.WHITECOAT_BIN ?? '../bin/whitecoat')
  if (!existsSync(bin)) {
    throw new Error(`whitecoat binary not found at ${bin}: run 'make build' or set WHITECOAT_BIN`)
  }
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error("Chromium not found at /usr/bin/chromium: run 'apt-get install -y chromium' (make test does this)")
  }

  const dir = mkdtempSync(join(tmpdir(), 'whitecoat-e2e-'))
  const mailDir = join(dir, 'mail')
  mkdirSync(mailDir)

  const smtp = await startSmtp(mailDir)
  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const databaseURL = join(dir, 'whitecoat.db')
  const logPath = join(dir, 'server.log')

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ADDR: `127.0.0.1:${port}`,
    BASE_URL: baseURL,
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: databaseURL,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Whitecoat <no-reply@whitecoat.test>',
    LOG_LEVEL: 'warn',
    // Generous limits: every test browses from 127.0.0.1.
    RATE_LIMIT_PER_IP: '1000',
    RATE_LIMIT_PER_ACCOUNT: '50',
    // The try spec reaches the anonymous limit after one recording.
    TRY_LIMIT_PER_IP: '3',
    // A reviewer's comments gather a second, not five minutes, before the
    // student's email that share.spec waits for.
    COMMENT_MAIL_DELAY: '1s',
    // The practice specs: real pocketsphinx, and answers that stop by
    // themselves after 10 s instead of 3 minutes so the auto-stop is seen.
    SPEECH_ENGINE: 'local',
    ANSWER_LIMIT: '10s',
    // The checkout specs buy Premium on the development checkout.
    DEV_CHECKOUT: '1',
  }

  const log = createWriteStream(logPath)
  const server = spawn(bin, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout?.pipe(log)
  server.stderr?.pipe(log)
  let exited: number | null | undefined
  server.on('exit', (code) => (exited = code))

  try {
    await waitReady(`${baseURL}/readyz`, () => exited, 30_000)
  } catch (err) {
    await stop(server)
    smtp.server.close()
    const output = existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`${(err as Error).message}\n--- whitecoat output ---\n${output}`)
  }

  process.env.E2E_BASE_URL = baseURL
  process.env.E2E_MAIL_DIR = mailDir
  process.env.E2E_DATABASE_URL = databaseURL
  process.env.E2E_DATA_DIR = env.DATA_DIR
  process.env.WHITECOAT_BIN = bin
  writeFileSync(join(dir, 'env.json'), JSON.stringify({ baseURL, mailDir, databaseURL }))

  return async () => {
    await stop(server)
    await new Promise<void>((done) => smtp.server.close(() => done()))
    if (process.env.E2E_KEEP_TMP) {
      console.log(`e2e: kept ${dir}`)
    } else {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo
      srv.close(() => done(port))
    })
  })
}

async function startSmtp(mailDir: string): Promise<{ server: SMTPServer; port: number }> {
  let seq = 0
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS, no authentication.
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = [mail.to]
            .flat()
            .filter((a): a is AddressObject => !!a)
            .flatMap((a) => a.value.map((v) => v.address?.toLowerCase() ?? ''))
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase())
          const record = {
            to: [...new Set([...to, ...envelopeTo])].filter(Boolean),
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: new Date().toISOString(),
          }
          seq += 1
          writeFileSync(join(mailDir, `${Date.now()}-${String(seq).padStart(5, '0')}.json`), JSON.stringify(record))
          callback()
        })
        .catch((err: Error) => callback(err))
    },
  })
  const port = await new Promise<number>((done, fail) => {
    server.on('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const addr = server.server.address() as AddressInfo
      done(addr.port)
    })
  })
  return { server, port }
}

export async function waitReady(url: string, exited: () => number | null | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    if (exited() !== undefined) throw new Error(`whitecoat exited with code ${exited()} before it was ready`)
    try {
      const res = await fetch(url)
      if (res.status === 200) return
      last = `status ${res.status}`
    } catch (err) {
      last = (err as Error).message
    }
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`whitecoat was not ready at ${url} within ${timeoutMs} ms (${last})`)
}

export async function stop(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const gone = new Promise<void>((done) => proc.once('exit', () => done()))
  proc.kill('SIGTERM')
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}
