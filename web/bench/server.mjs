// The real binary on a temporary SQLite database, for the web benchmarks.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
    probe.on('error', reject)
  })
}

/** Starts bin serve with env added to its own, and resolves once it is ready. */
export async function startServer(bin, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'whitecoat-bench-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = spawn(bin, ['serve'], {
    env: { ...process.env, ...env, ADDR: `127.0.0.1:${port}`, BASE_URL: url, DATA_DIR: join(dir, 'data'), DATABASE_URL: join(dir, 'whitecoat.db'), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  for (const deadline = Date.now() + 30_000; ; ) {
    if (server.exitCode !== null) throw new Error(`whitecoat exited with ${server.exitCode}`)
    try {
      if ((await fetch(`${url}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('whitecoat did not become ready in 30 s')
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    dir,
    close() {
      server.kill('SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

