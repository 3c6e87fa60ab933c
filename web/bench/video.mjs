// What measuring video delivery on the device costs (issue 42), in
// Debian's Chromium against the real binary: the browser's CPU per second
// of answer and the frames the recording dropped, with the measurement on
// and off, and what video mode loads for it. A fake camera plays the
// public-domain portrait the e2e specs use (FACE_PHOTO); a fake
// microphone speaks. Prints tables; run by `make bench-video`
// (mk/video.mk). No target: the figures are reported.
//
// Chromium here has no GPU: the face mesh runs on its software renderer
// (SwiftShader), the slowest case there is. A real laptop's or phone's
// GPU runs a frame in a small part of the time.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { startServer } from './server.mjs'

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const ANSWER_SECONDS = 20
const CAMERA_FPS = 10
const RUNS = Number(process.env.RUNS ?? 2)
const PASSWORD = 'practice makes confident'

const bin = process.argv[2]
const photo = process.argv[3]
if (!bin || !photo) {
  console.error('usage: node bench/video.mjs path/to/whitecoat path/to/astronaut.png')
  process.exit(2)
}

const work = mkdtempSync(join(tmpdir(), 'whitecoat-bench-video-'))
const camera = join(work, 'camera.y4m')
execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-loop', '1', '-framerate', String(CAMERA_FPS), '-t', '30', '-i', photo,
  '-vf', 'crop=384:288:33:0,scale=640:480,format=yuv420p', '-f', 'yuv4mpegpipe', camera])
const microphone = join(work, 'answer.wav')
execFileSync('flite', ['-voice', 'slt', '-t', 'I want to become a dentist because I love helping people and my family dentist taught me that trust matters.', '-o', join(work, 'raw.wav')])
execFileSync('sox', [join(work, 'raw.wav'), '-r', '48000', '-c', '1', '-b', '16', microphone, 'pad', '0', '0.7'])

/** CPU seconds (user and system) used so far by the process pid and every process below it. */
function cpuSecondsOf(pid) {
  const children = new Map()
  const ticks = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const parent = Number(fields[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(name)])
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]))
    } catch {
      // gone meanwhile
    }
  }
  let total = 0
  const walk = (p) => {
    total += ticks.get(p) ?? 0
    for (const c of children.get(p) ?? []) walk(c)
  }
  walk(pid)
  return total / 100 // USER_HZ
}

/** Frames of a recorded WebM, and those dropped: gaps between frames longer than the camera's interval. */
function framesOf(path) {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', path], { encoding: 'utf8' })
  const times = out.split('\n').filter(Boolean).map(Number).sort((a, b) => a - b)
  let dropped = 0
  for (let i = 1; i < times.length; i++) dropped += Math.max(0, Math.round((times[i] - times[i - 1]) * CAMERA_FPS) - 1)
  return { frames: times.length, dropped }
}

async function answerOnce(server, email, watch) {
  // A browser server, whose process (and so every process of the browser) is known.
  const browserServer = await chromium.launchServer({
    executablePath: CHROME_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${microphone}`, `--use-file-for-fake-video-capture=${camera}`],
  })
  const browser = await chromium.connect(browserServer.wsEndpoint())
  try {
    const page = await browser.newPage({ baseURL: server.url })
    // The video recorder's pieces, kept to count its frames (the app's
    // policy lets no script fetch the replay's blob: URL).
    await page.addInitScript(() => {
      const start = MediaRecorder.prototype.start
      MediaRecorder.prototype.start = function (...args) {
        if (this.stream.getVideoTracks().length > 0) {
          window.recorded = []
          this.addEventListener('dataavailable', (e) => window.recorded.push(e.data))
        }
        return start.apply(this, args)
      }
    })
    const loaded = []
    page.on('requestfinished', async (request) => {
      if (!request.url().includes('/sandbox/')) return
      const sizes = await request.sizes()
      loaded.push({ file: request.url().split('/').pop(), bytes: sizes.responseBodySize })
    })
    let measured = null
    page.on('request', (request) => {
      if (request.url().endsWith('/audio/finish')) measured = JSON.parse(request.postData() ?? '{}').videoDelivery ?? null
    })
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/dashboard/)
    const prefs = await (await page.request.get('/api/practice/preferences')).json()
    await page.request.put('/api/practice/preferences', { data: { ...prefs.preferences, watchVideo: watch } })
    await page.goto('/dental/setup')
    await page.getByLabel('Number of questions').fill('1')
    await page.getByRole('button', { name: 'Start Interview' }).click()
    await page.getByLabel('Camera preview').waitFor()
    if (watch) await page.getByText('Eye contact, framing and steadiness are measured on this device while you answer; no picture is sent.').waitFor({ timeout: 90_000 })
    // The page settles (the camera opened, the model's first run done) before the answer is timed.
    await page.waitForTimeout(2_000)
    const pid = browserServer.process().pid
    const before = cpuSecondsOf(pid)
    const started = Date.now()
    await page.getByRole('button', { name: 'Start Recording' }).click()
    await page.getByLabel('Replay your answer').waitFor({ timeout: ANSWER_SECONDS * 1000 + 30_000 })
    const seconds = (Date.now() - started) / 1000
    const cpu = cpuSecondsOf(pid) - before
    const replay = await page.evaluate(async () => {
      const bytes = new Uint8Array(await new Blob(window.recorded).arrayBuffer())
      let text = ''
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
      return btoa(text)
    })
    const recording = join(work, `answer-${watch ? 'on' : 'off'}.webm`)
    writeFileSync(recording, Buffer.from(replay, 'base64'))
    await page.getByRole('button', { name: 'Complete Session' }).click()
    await page.waitForURL(/summary/)
    return { cpuPerSecond: cpu / seconds, seconds, ...framesOf(recording), analyzed: measured?.frames ?? 0, loaded }
  } finally {
    await browser.close()
    await browserServer.close()
  }
}

const server = await startServer(bin, { ANSWER_LIMIT: `${ANSWER_SECONDS}s` })
try {
  const email = 'bench-video@example.com'
  const cli = { env: { ...process.env, DATABASE_URL: join(server.dir, 'whitecoat.db'), DATA_DIR: join(server.dir, 'data') } }
  execFileSync(bin, ['user', 'create', '--email', email, '--name', 'Bench Video', '--password-stdin'], { ...cli, input: `${PASSWORD}\n` })
  // A pass: the free trial's two sessions would not last the runs.
  execFileSync(bin, ['user', 'grant-pass', email], cli)
  const rows = []
  let loaded = []
  for (let run = 1; run <= RUNS; run++) {
    for (const watch of [false, true]) {
      const r = await answerOnce(server, email, watch)
      if (watch) loaded = r.loaded
      rows.push({ run, watch, ...r })
    }
  }
  console.log(`\nVideo delivery on the device (issue 42): a ${ANSWER_SECONDS}-s answer on a ${CAMERA_FPS} fps fake camera, Chromium without a GPU`)
  console.log('| run | measurement | browser CPU per s of answer | frames analyzed (per s) | frames recorded | frames dropped |')
  console.log('|---|---|---|---|---|---|')
  for (const r of rows) {
    console.log(`| ${r.run} | ${r.watch ? 'on' : 'off'} | ${r.cpuPerSecond.toFixed(2)} s | ${r.analyzed} (${(r.analyzed / r.seconds).toFixed(2)}) | ${r.frames} | ${r.dropped} |`)
  }
  const total = loaded.reduce((sum, f) => sum + f.bytes, 0)
  console.log('\nWhat video mode loads for the measurement (bytes on the wire, as served compressed)')
  console.log('| file | KB |')
  console.log('|---|---|')
  for (const f of [...loaded].sort((a, b) => b.bytes - a.bytes)) console.log(`| ${f.file} | ${(f.bytes / 1024).toFixed(1)} |`)
  console.log(`| all | ${(total / 1024).toFixed(1)} |`)
} finally {
  server.close()
  rmSync(work, { recursive: true, force: true })
}
