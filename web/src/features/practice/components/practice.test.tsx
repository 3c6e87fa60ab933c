import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dashboardBody, deferred, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { stubXhr } from '@/test/fake-xhr'
import { renderApp } from '@/test/render'
import { sessionTime } from '@/lib/session-time'
import { defaultSessionTitle } from '../utils/summary'

const HEAVY_USAGE =
  "We've noticed unusually heavy usage on your account. To ensure fair access for all users, we've temporarily paused usage. If you believe this is a mistake, please contact support."

function item(position: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `i${position}`,
    position,
    kind: 'spoken',
    scenario: '',
    question: `Question ${position}?`,
    followUps: [],
    prepSeconds: 0,
    answerSeconds: 180,
    autoStart: false,
    tip: `Tip ${position}`,
    subtag: '',
    big3Order: 0,
    status: 'pending',
    transcript: null,
    metrics: null,
    feedback: null,
    meaningful: null,
    error: '',
    canRetry: false,
    ...overrides,
  }
}

function session(overrides: Record<string, unknown> = {}) {
  return {
    id: 's1',
    profession: 'dental',
    mode: 'audio',
    interviewType: 'random',
    format: 'traditional',
    extension: '1',
    big3: true,
    questionCount: 2,
    status: 'active',
    createdAt: new Date().toISOString(),
    completedAt: null,
    totalSessionTime: 0,
    answerLimitSeconds: 180,
    averageScore: null,
    improvement: null,
    processing: false,
    items: [item(1), item(2)],
    ...overrides,
  }
}

function feedback(score: number, overrides: Record<string, unknown> = {}) {
  return {
    overallScore: score,
    sectionScores: { overallImpression: score, clarityStructure: score - 5, content: score + 5 },
    summary: `Summary for ${score}.`,
    suggestions: [`Suggestion for ${score}.`],
    rubricVersion: 'v1',
    engine: 'rubric',
    evidence: [],
    fallback: false,
    ...overrides,
  }
}

const presets = [
  { format: 'traditional', timings: { prepSeconds: 0, answerSeconds: 180 }, count: 5 },
  { format: 'mmi', timings: { prepSeconds: 120, answerSeconds: 420 }, count: 6 },
  { format: 'kira', timings: { prepSeconds: 45, answerSeconds: 90 }, count: 5 },
  { format: 'casper', timings: { prepSeconds: 30, answerSeconds: 60, typedSeconds: 210 }, count: 2 },
]

const base = {
  'GET /api/auth/me': () => json(200, { user: user() }),
  'GET /api/professions': () => json(200, professionsBody),
  'GET /api/practice/formats': () => json(200, { presets }),
  'GET /api/dashboard': () => json(200, dashboardBody()),
}

/**
 * A microphone and a MediaRecorder that hands over "op" when it starts with
 * a timeslice (the first piece of a streamed answer) and "us" when stopped.
 */
function fakeMedia(getUserMedia: () => Promise<unknown> = () => Promise.resolve({ getTracks: () => [], getAudioTracks: () => [] })) {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(getUserMedia) } })
  const recorders: FakeRecorder[] = []
  class FakeRecorder {
    static isTypeSupported = (t: string) => t === 'audio/webm;codecs=opus'
    state = 'inactive'
    mimeType: string
    ondataavailable: ((e: { data: Blob }) => void) | null = null
    onstop: (() => void) | null = null
    constructor(_: unknown, opts?: { mimeType?: string }) {
      this.mimeType = opts?.mimeType ?? ''
      recorders.push(this)
    }
    start(timeslice?: number) {
      this.state = 'recording'
      if (timeslice) queueMicrotask(() => this.ondataavailable?.({ data: new Blob(['op'], { type: this.mimeType }) }))
    }
    stop() {
      this.state = 'inactive'
      this.ondataavailable?.({ data: new Blob(['us'], { type: this.mimeType }) })
      this.onstop?.()
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder)
  URL.createObjectURL = vi.fn(() => 'blob:replay')
  URL.revokeObjectURL = vi.fn()
  return { recorders }
}

const PIECE = 'PATCH /api/practice/sessions/s1/items/i1/audio'
const FINISH = 'POST /api/practice/sessions/s1/items/i1/audio/finish'

/** The server's end of a streamed answer: keeps each piece as "offset type bytes" and answers with the bytes it has. */
function pieceServer() {
  const pieces: string[] = []
  let received = 0
  const handler = async (req: Request) => {
    const body = await req.text()
    pieces.push(`${new URL(req.url).searchParams.get('offset')} ${req.headers.get('Content-Type')} ${body}`)
    received += body.length
    return json(200, { received })
  }
  return { pieces, handler }
}

beforeEach(() => {
  // jsdom has no media elements' playback; React only sets their src.
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {})
})
afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices')
  vi.unstubAllGlobals()
})

describe('practice session', () => {
  it('shows the spec text in red when the microphone is refused', async () => {
    fakeMedia(() => Promise.reject(new DOMException('no', 'NotAllowedError')))
    mockApi({ ...base, 'GET /api/practice/sessions/s1': () => json(200, { session: session() }) })
    renderApp('/dental/session?id=s1')
    const alert = await screen.findByText('Camera and microphone access was denied.')
    expect(alert).toHaveClass('text-red-700')
    expect(screen.getByRole('button', { name: 'Start Recording' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Skip Question' })).toBeEnabled()
  })

  it('streams the answer while it is recorded, finishes it when saved, and completes after the last answer', async () => {
    fakeMedia()
    const xhr = stubXhr([{ status: 500 }])
    const server = pieceServer()
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ items: [item(1)] }) }),
      [PIECE]: server.handler,
      [FINISH]: () => json(202, { item: item(1, { status: 'queued' }) }),
      'POST /api/practice/sessions/s1/complete': () => json(200, { session: session({ status: 'completed', items: [item(1, { status: 'queued' })], processing: true }) }),
    })
    const { router } = renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    expect(await screen.findByText(/^Dental interview/)).toHaveTextContent('Dental interview · Traditional · Audio')
    expect(screen.getByText('Recording started')).toHaveClass('sr-only')
    expect(screen.getByRole('timer')).toHaveTextContent('3:00')
    await waitFor(() => expect(server.pieces).toEqual(['0 audio/webm;codecs=opus op']))
    await userEvent.click(screen.getByRole('button', { name: 'Stop Recording' }))
    expect(await screen.findByText('Uploaded')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100')
    expect(server.pieces).toEqual(['0 audio/webm;codecs=opus op', '2 audio/webm;codecs=opus us'])
    expect(calls.find((c) => c.key === FINISH)?.body).toEqual({ size: 4 })
    expect(xhr).toHaveLength(0)
    await userEvent.click(screen.getByRole('button', { name: 'Complete Session' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/summary'))
    expect(router.state.location.search).toBe('?id=s1')
    expect(await screen.findByText('Dental interview')).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions/s1/complete')?.body).toEqual({ totalSessionTime: expect.any(Number) })
  })

  it('plays the answer back with its length, seeking once so Chromium finds the duration of a recorded blob', async () => {
    fakeMedia()
    const server = pieceServer()
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session() }),
      [PIECE]: server.handler,
      [FINISH]: () => json(202, { item: item(1, { status: 'queued' }) }),
    })
    // The recorder measures the length on the page's clock: the test
    // moves that clock itself, so a busy machine cannot change the figure.
    let clock = 1_000
    vi.spyOn(performance, 'now').mockImplementation(() => clock)
    renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    clock += 12_400
    await userEvent.click(screen.getByRole('button', { name: 'Stop Recording' }))
    const player = (await screen.findByLabelText('Replay your answer')) as HTMLAudioElement
    expect(screen.getByText(/^Length/)).toHaveTextContent('Length 0:12')
    let position = 0
    Object.defineProperty(player, 'duration', { configurable: true, value: Infinity })
    Object.defineProperty(player, 'currentTime', { configurable: true, get: () => position, set: (t: number) => (position = t) })
    fireEvent.loadedMetadata(player)
    expect(position).toBe(Number.MAX_SAFE_INTEGER)
    fireEvent.timeUpdate(player)
    expect(position).toBe(0)
  })

  it('shows a microphone level meter before and while recording, from a Web Audio analyser', async () => {
    fakeMedia(() => Promise.resolve({ getTracks: () => [], getAudioTracks: () => [{ kind: 'audio' }] }))
    const closed = vi.fn()
    class FakeAudioContext {
      resume = () => Promise.resolve()
      close = () => Promise.resolve(closed())
      createMediaStreamSource = () => ({ connect: () => {}, disconnect: () => {} })
      createAnalyser = () => ({
        fftSize: 0,
        // A steady tone of amplitude 0.25: RMS about 0.18, a normal voice.
        getByteTimeDomainData: (samples: Uint8Array) => samples.forEach((_, i) => (samples[i] = i % 2 ? 160 : 96)),
      })
    }
    vi.stubGlobal('AudioContext', FakeAudioContext)
    mockApi({ ...base, 'GET /api/practice/sessions/s1': () => json(200, { session: session() }), [PIECE]: pieceServer().handler })
    renderApp('/dental/session?id=s1')
    const meter = await screen.findByRole('meter', { name: 'Microphone level' })
    await waitFor(() => expect(meter).toHaveAttribute('aria-valuetext', 'Good'))
    expect(Number(meter.getAttribute('aria-valuenow'))).toBeGreaterThan(30)
    expect(meter.closest('[aria-live]')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Start Recording' }))
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Stop Recording' }))
    await waitFor(() => expect(screen.queryByRole('meter')).not.toBeInTheDocument())
    expect(closed).toHaveBeenCalled()
  })

  it('uploads the answer whole when streaming broke, and Retry sends a failed upload again', async () => {
    fakeMedia()
    const sent = stubXhr([
      { status: 400, body: { title: 'Bad Request', status: 400, detail: 'The recording could not be read.' } },
      { status: 202, body: { item: item(1, { status: 'queued' }) } },
    ])
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session() }),
      [PIECE]: () => json(409, { title: 'Conflict', status: 409, detail: 'The recording changed while this piece arrived.' }),
    })
    renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    await waitFor(() => expect(calls.map((c) => c.key)).toContain(PIECE))
    await userEvent.click(screen.getByRole('button', { name: 'Stop Recording' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Upload failed: The recording could not be read.')
    await userEvent.click(screen.getByRole('button', { name: 'Retry upload' }))
    expect(await screen.findByText('Uploaded')).toBeInTheDocument()
    expect(sent).toMatchObject([
      { method: 'PUT', url: '/api/practice/sessions/s1/items/i1/audio', headers: { 'Content-Type': 'audio/webm;codecs=opus' } },
      { method: 'PUT', url: '/api/practice/sessions/s1/items/i1/audio' },
    ])
    expect(await (sent[1]!.body as Blob).text()).toBe('opus')
    expect(calls.filter((c) => c.key === PIECE)).toHaveLength(1)
    expect(calls.some((c) => c.key === FINISH)).toBe(false)
  })

  it('stops the recorder when the usage guard refuses the recording and goes to the dashboard, which shows the pause', async () => {
    const { recorders } = fakeMedia()
    let paused = false
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session() }),
      [PIECE]: () => {
        paused = true
        return json(403, { title: 'Forbidden', status: 403, detail: HEAVY_USAGE })
      },
      'GET /api/dashboard': () => json(200, dashboardBody(paused ? { usagePause: { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' } } : {})),
    })
    const { router } = renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    expect(recorders.map((r) => r.state)).toEqual(['recording'])
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/dashboard'))
    expect(await screen.findByRole('heading', { name: 'Practice is paused' })).toBeInTheDocument()
    expect(screen.getByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start practice' })).toBeDisabled()
    await waitFor(() => expect(recorders.map((r) => r.state)).toEqual(['inactive']))
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
  })

  it('runs an MMI station: reading with notes, ended early, 3-2-1, recording by itself, follow-ups as it runs', async () => {
    const { recorders } = fakeMedia()
    const station = item(1, {
      scenario: 'A patient asks you to keep a diagnosis from her husband.',
      question: 'What would you do?',
      followUps: ['What if she asks you to lie?', 'Who else would you involve?'],
      prepSeconds: 120,
      answerSeconds: 420,
      autoStart: true,
    })
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ format: 'mmi', extension: '1.5', items: [station] }) }),
      [PIECE]: () => json(200, { received: 2 }),
    })
    renderApp('/dental/session?id=s1')
    expect(await screen.findByText('Station 1 of 1')).toBeInTheDocument()
    expect(await screen.findByText(/^Dental interview/)).toHaveTextContent('Dental interview · MMI stations · 1.5× time · Audio')
    expect(screen.getByText('A patient asks you to keep a diagnosis from her husband.')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('2:00')
    await userEvent.type(screen.getByLabelText('Your notes'), 'autonomy vs honesty')
    expect(screen.queryByRole('button', { name: 'Start Recording' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Start answering now' }))
    expect(await screen.findByText('Recording starts in 3 seconds')).toHaveClass('sr-only')
    await waitFor(() => expect(recorders.map((r) => r.state)).toEqual(['recording']))
    // The answer clock starts at 7:00 and may have ticked once or more before
    // a busy machine lets this line run.
    expect(screen.getByRole('timer').textContent).toMatch(/^(7:00|6:5\d)$/)
    // The notes stay in view while answering.
    expect(screen.getByLabelText('Your notes')).toHaveValue('autonomy vs honesty')
    expect(screen.queryByText('What if she asks you to lie?')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Ask the next follow-up now' }))
    expect(within(screen.getByRole('list', { name: 'The interviewer asks' })).getByText('What if she asks you to lie?')).toBeInTheDocument()
    expect(screen.getByText('The interviewer asks: What if she asks you to lie?')).toHaveClass('sr-only')
    await userEvent.click(screen.getByRole('button', { name: 'Stop Recording' }))
    expect(await screen.findByText('Your answer was saved.')).toBeInTheDocument()
  })

  it('takes a typed part: the scenario, a box per question under one clock, submitted as one text', async () => {
    fakeMedia()
    const typed = item(1, {
      kind: 'typed',
      scenario: 'Your friend shares exam answers in the group chat.',
      question: 'What would you do?',
      followUps: ['How would you explain it to your friend?'],
      answerSeconds: 210,
    })
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ format: 'casper', items: [typed] }) }),
      'POST /api/practice/sessions/s1/items/i1/typed': () => json(202, { item: { ...typed, status: 'scoring' } }),
      'POST /api/practice/sessions/s1/complete': () => json(200, { session: session({ status: 'completed' }) }),
    })
    const { router } = renderApp('/pharmacy/session?id=s1')
    expect(await screen.findByText('Typed response · Station 1 of 1')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('3:30')
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeDisabled()
    await userEvent.type(screen.getByLabelText('1. What would you do?'), 'I would not use them and I would tell the course lead.')
    await userEvent.type(screen.getByLabelText('2. How would you explain it to your friend?'), 'Privately, and honestly.')
    await userEvent.click(screen.getByRole('button', { name: 'Submit answers' }))
    expect(await screen.findByText('Your answers were submitted.')).toHaveClass('sr-only')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions/s1/items/i1/typed')?.body).toEqual({
      text: '1. I would not use them and I would tell the course lead.\n\n2. Privately, and honestly.',
    })
    expect(screen.getByLabelText('1. What would you do?')).toHaveAttribute('readonly')
    await userEvent.click(screen.getByRole('button', { name: 'Complete Session' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/pharmacy/summary'))
  })

  it('holds Next for a moment after the limit stops a recording, so a late click on Stop does not skip ahead', async () => {
    fakeMedia()
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ items: [item(1, { answerSeconds: 1 }), item(2)] }) }),
      [PIECE]: () => json(200, { received: 2 }),
      [FINISH]: () => json(202, { item: item(1, { status: 'queued' }) }),
    })
    renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    // 1 s is the item's limit, not the spec's 3 minutes: the general message.
    expect(await screen.findByText('Time is up. Your response was saved.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next Question' })).toBeDisabled()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next Question' })).toBeEnabled())
  })

  it('skipping the last question completes the session', async () => {
    fakeMedia()
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ items: [item(1, { status: 'done' }), item(2)] }) }),
      'POST /api/practice/sessions/s1/items/i2/skip': () => json(200, { item: item(2, { status: 'skipped' }) }),
      'POST /api/practice/sessions/s1/complete': () => json(200, { session: session({ status: 'completed' }) }),
    })
    const { router } = renderApp('/dental/session?id=s1')
    // A reload resumes at the first unanswered question.
    expect(await screen.findByText('Question 2 of 2')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Skip Question' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/summary'))
    expect(calls.map((c) => c.key)).toContain('POST /api/practice/sessions/s1/items/i2/skip')
  })
})

describe('summary', () => {
  it('shows a station with its scenario, and a typed answer as written: no speech figures, nothing to correct', async () => {
    const done = session({
      status: 'completed',
      format: 'casper',
      averageScore: 70,
      items: [
        item(1, {
          kind: 'typed',
          scenario: 'A friend shares exam answers.',
          question: 'What would you do?',
          followUps: ['What would you tell your friend?'],
          status: 'done',
          transcript: '1. Refuse.\n\n2. The truth.',
          feedback: feedback(70),
          meaningful: true,
        }),
      ],
    })
    mockApi({ ...base, 'GET /api/practice/sessions/s1': () => json(200, { session: done }) })
    renderApp('/dental/summary?id=s1')
    const card = await screen.findByRole('article', { name: '1. What would you do?' })
    expect(within(card).getByText('What would you tell your friend?')).toBeInTheDocument()
    expect(within(card).getByText('Scenario')).toBeInTheDocument()
    expect(within(card).getByRole('heading', { name: 'Your written answer' })).toBeInTheDocument()
    expect(within(card).queryByText('Words per minute')).not.toBeInTheDocument()
    expect(within(card).queryByRole('button', { name: 'Correct the transcript' })).not.toBeInTheDocument()
  })

  it('shows results in order with skipped last, offline scoring, no-content and failures with Retry', async () => {
    const metrics = { durationSeconds: 65, wordsPerMinute: 131.6, fillerCount: 2, longestPauseSeconds: 1.25, pausesMeasured: true }
    const done = session({
      status: 'completed',
      averageScore: 78,
      improvement: 6,
      items: [
        item(1, { status: 'skipped' }),
        item(2, { status: 'done', transcript: 'I love people.', metrics, feedback: feedback(85, { fallback: true, fallbackReason: 'The AI model did not answer.' }), meaningful: true }),
        item(3, { status: 'done', transcript: 'Thank you.', meaningful: false }),
        item(4, { status: 'failed', error: 'Transcription is unavailable.', canRetry: true }),
      ],
    })
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: done }),
      'POST /api/practice/sessions/s1/items/i4/retry': () => json(202, { item: item(4, { status: 'queued' }) }),
    })
    renderApp('/dental/summary?id=s1')
    const cards = await screen.findAllByRole('article')
    expect(cards.map((c) => within(c).getByRole('heading', { level: 2 }).textContent)).toEqual(['1. Question 2?', '2. Question 3?', '3. Question 4?', '4. Question 1?'])
    expect(screen.getByText('78%')).toBeInTheDocument()
    expect(screen.getByText('+6 vs last session')).toBeInTheDocument()

    const [scored, empty, failed, skipped] = cards as [HTMLElement, HTMLElement, HTMLElement, HTMLElement]
    expect(within(scored).getByText('Score: 85')).toHaveClass('bg-primary')
    expect(within(scored).getByText('Clarity & structure: 80')).toHaveClass('bg-primary')
    expect(within(scored).getByText('Scored offline')).toBeInTheDocument()
    expect(within(scored).getByText(/The AI model did not answer/)).toBeInTheDocument()
    expect(within(scored).getByText('1:05')).toBeInTheDocument()
    expect(within(scored).getByText('132')).toBeInTheDocument()
    expect(within(scored).getByText('1.3 s')).toBeInTheDocument()
    expect(within(scored).getByText('Suggestion for 85.')).toBeInTheDocument()
    expect(within(empty).getByText('No meaningful response detected. Skipping feedback.')).toBeInTheDocument()
    expect(within(failed).getByText('Error')).toBeInTheDocument()
    expect(within(failed).getByText('Error generating feedback')).toBeInTheDocument()
    expect(within(skipped).getByText('Skipped')).toBeInTheDocument()

    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('POST /api/practice/sessions/s1/items/i4/retry'))
  })

  it('corrects a misheard transcript: scored again, marked, the engine\'s words kept', async () => {
    const misheard = 'so am i think that the most important thing is listening'
    const before = session({ status: 'completed', averageScore: 40, items: [item(1, { status: 'done', transcript: misheard, feedback: feedback(40), meaningful: true })] })
    const after = session({
      status: 'completed',
      averageScore: 82,
      items: [
        item(1, {
          status: 'done',
          transcript: 'So I think the most important thing is listening.',
          feedback: feedback(82),
          meaningful: true,
          correction: { originalTranscript: misheard, correctedAt: '2026-11-24T16:00:00Z' },
        }),
      ],
    })
    const answer = deferred<Response>()
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: before }),
      'PUT /api/practice/sessions/s1/items/i1/transcript': () => answer.promise,
    })
    renderApp('/dental/summary?id=s1')
    const card = await screen.findByRole('article')
    await userEvent.click(within(card).getByRole('button', { name: 'Correct the transcript' }))
    const field = within(card).getByLabelText('Corrected transcript')
    expect(field).toHaveFocus()
    expect(field).toHaveValue(misheard)

    await userEvent.clear(field)
    await userEvent.type(field, 'x'.repeat(20))
    expect(within(card).getByText(/20 \/ 8,000 characters/)).toBeInTheDocument()
    await userEvent.clear(field)
    await userEvent.type(field, 'So I think the most important thing is listening.')
    await userEvent.click(within(card).getByRole('button', { name: 'Save and score again' }))
    expect(await within(card).findByRole('button', { name: 'Scoring again…' })).toBeDisabled()
    expect(calls.find((c) => c.key === 'PUT /api/practice/sessions/s1/items/i1/transcript')?.body).toEqual({ transcript: 'So I think the most important thing is listening.' })

    answer.resolve(json(200, { session: after }))
    expect(await within(card).findByText('Corrected by you')).toBeInTheDocument()
    expect(within(card).getByText('Score: 82')).toBeInTheDocument()
    expect(screen.getByText('82%')).toBeInTheDocument()
    expect(within(card).getByText('What the speech engine heard')).toBeInTheDocument()
    expect(within(card).getByText(misheard)).not.toBeVisible()
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Correct the transcript' })).toHaveFocus())
  })

  it('keeps the correction and says why when it cannot be scored', async () => {
    const before = session({ status: 'completed', averageScore: 40, items: [item(1, { status: 'done', transcript: 'um', feedback: feedback(40), meaningful: true })] })
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: before }),
      'PUT /api/practice/sessions/s1/items/i1/transcript': () => problem(422, 'The corrected transcript has no answer in it to score. Write what you said.'),
    })
    renderApp('/dental/summary?id=s1')
    const card = await screen.findByRole('article')
    await userEvent.click(within(card).getByRole('button', { name: 'Correct the transcript' }))
    await userEvent.type(within(card).getByLabelText('Corrected transcript'), ' uh')
    await userEvent.click(within(card).getByRole('button', { name: 'Save and score again' }))
    expect(await within(card).findByRole('alert')).toHaveTextContent('The corrected transcript has no answer in it to score.')
    expect(within(card).getByLabelText('Corrected transcript')).toHaveValue('um uh')
    expect(within(card).getByLabelText('Corrected transcript')).toHaveAttribute('aria-invalid', 'true')
  })

  it('compares an answer with the earlier answers to the same question', async () => {
    const metricsNow = { durationSeconds: 60, wordsPerMinute: 140, fillerCount: 1, fillersPer100Words: 1, longestPauseSeconds: 1.2, pausesOver2s: 0, pausesMeasured: true }
    const done = session({
      status: 'completed',
      averageScore: 80,
      items: [item(1, { status: 'done', transcript: 'I want to help patients and I want a career', metrics: metricsNow, feedback: feedback(80), meaningful: true })],
    })
    const attempt = (score: number, answeredAt: string, transcript: string, metrics: object = {}) => ({
      sessionId: `old-${score}`,
      answeredAt,
      transcript,
      feedback: feedback(score),
      metrics: { ...metricsNow, wordsPerMinute: 120, fillerCount: 4, longestPauseSeconds: 3.5, ...metrics },
    })
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: done }),
      'GET /api/practice/sessions/s1/earlier-attempts': () =>
        json(200, {
          locked: false,
          items: [{ itemId: 'i1', attempts: [attempt(62, '2026-11-20T10:00:00Z', 'I like teeth and I want a job'), attempt(40, '2026-11-10T10:00:00Z', 'teeth', { fillerCount: 0, fillersSource: 'estimated' })] }],
        }),
    })
    renderApp('/dental/summary?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Scores, feedback and evidence' }))
    const compare = await screen.findByRole('region', { name: 'You answered this question before' })
    const change = (measure: string) => within(within(compare).getByRole('rowheader', { name: measure }).closest('tr')!).getAllByRole('cell')
    expect(change('Score').map((c) => c.textContent)).toEqual(['62', '80', '+18'])
    expect(change('Fillers').map((c) => c.textContent)).toEqual(['4', '1', '−3'])
    expect(change('Fillers')[2]).toHaveClass('text-primary')
    expect(change('Longest pause (s)').map((c) => c.textContent)).toEqual(['3.5', '1.2', '−2.3'])
    expect(compare.querySelector('del')).toHaveTextContent('like teeth')
    expect(compare.querySelector('ins')).toHaveTextContent('help patients')

    await userEvent.selectOptions(within(compare).getByLabelText('Compare with'), '1')
    expect(change('Score').map((c) => c.textContent)).toEqual(['40', '80', '+40'])
    // That answer's engine drops hesitations and heard none: not measured, so no change to show.
    expect(change('Fillers').map((c) => c.textContent)).toEqual(['—', '1', '—'])
  })

  it('compares a typed answer with an earlier spoken one on its scores alone', async () => {
    const done = session({
      status: 'completed',
      averageScore: 70,
      items: [item(1, { kind: 'typed', status: 'done', transcript: 'I would speak with my friend privately', metrics: null, feedback: feedback(70), meaningful: true })],
    })
    const spoken = { durationSeconds: 60, wordsPerMinute: 183, fillerCount: 0, fillersPer100Words: 0, longestPauseSeconds: 0.9, pausesOver2s: 0, pausesMeasured: true }
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: done }),
      'GET /api/practice/sessions/s1/earlier-attempts': () =>
        json(200, {
          locked: false,
          items: [{ itemId: 'i1', attempts: [{ sessionId: 'old', answeredAt: '2026-11-20T10:00:00Z', transcript: 'I would tell my friend', feedback: feedback(44), metrics: spoken }] }],
        }),
    })
    renderApp('/dental/summary?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Scores, feedback and evidence' }))
    const compare = await screen.findByRole('region', { name: 'You answered this question before' })
    expect(within(compare).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Score', 'Overall impression', 'Clarity & structure', 'Content'])
  })

  it('polls while answers are processing and saves with the default title', async () => {
    let polls = 0
    const processing = session({ status: 'completed', processing: true, items: [item(1, { status: 'transcribing' })] })
    const practised = '2025-09-07T14:05:00Z'
    const finished = session({
      status: 'completed',
      createdAt: practised,
      averageScore: 65,
      items: [item(1, { status: 'done', transcript: 'Hi.', feedback: feedback(65), meaningful: true })],
    })
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: ++polls < 2 ? processing : finished }),
      'POST /api/practice/sessions/s1/save': () => json(201, { saved: {} }),
    })
    renderApp('/dental/summary?id=s1')
    expect(await screen.findByText('Transcribing…')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save Session' })).toBeDisabled()
    expect(await screen.findByText('65%')).toHaveClass('bg-destructive')
    await userEvent.click(screen.getByRole('button', { name: 'Save Session' }))
    const title = within(screen.getByRole('dialog')).getByLabelText('Title')
    // Named after when the session was practised, as every list shows it.
    expect((title as HTMLInputElement).value).toBe(defaultSessionTitle(new Date(practised)))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Session saved to your dashboard.')).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions/s1/save')?.body).toEqual({ title: expect.stringMatching(/^Session /) })
  })

  it('says so when saving fails', async () => {
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ status: 'completed', items: [item(1, { status: 'skipped' })] }) }),
      'POST /api/practice/sessions/s1/save': () => json(500, { title: 'Internal Server Error', status: 500 }),
    })
    renderApp('/dental/summary?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Save Session' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Failed to save session. Please try again.')).toBeInTheDocument()
  })

  it("words a saved session's failed and empty answers as the spec does", async () => {
    mockApi({
      ...base,
      'GET /api/practice/saved/v2': () =>
        json(200, {
          saved: {
            id: 'v2',
            title: 'Tuesday practice',
            profession: 'dental',
            createdAt: '2025-09-09T10:00:00Z',
            overallAvg: 0,
            scored: false,
            totalSessionTime: 120,
            counts: { totalQuestions: 2, answered: 2, skipped: 0 },
            items: [
              { question: 'Why?', tip: '', status: 'failed', meaningful: null, skipped: false, transcript: '', feedback: null },
              { question: 'How?', tip: '', status: 'done', meaningful: false, skipped: false, transcript: 'Thank you.', feedback: null },
            ],
          },
        }),
    })
    renderApp('/dental/summary?saved=v2')
    const [failed, empty] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement]
    expect(within(failed).getByText('Failed')).toBeInTheDocument()
    expect(within(failed).getByText('Error')).toBeInTheDocument()
    expect(within(failed).getByText('Error generating feedback')).toBeInTheDocument()
    expect(within(empty).getByText('Thank you.')).toBeInTheDocument()
    expect(within(empty).getByText('No meaningful response detected. Skipping feedback.')).toBeInTheDocument()
    // Nothing was scored: said so, never as 0 %.
    expect(screen.getByText('No answers were scored in this session.')).toBeInTheDocument()
    expect(screen.getByText(/silent, could not be processed or was skipped\. It is not counted and does not use a free session\./)).toBeInTheDocument()
    expect(screen.queryByText('0%')).not.toBeInTheDocument()
  })

  it('says why a silent session was not scored, without a percentage', async () => {
    const silent = session({ status: 'completed', items: [item(1, { status: 'done', transcript: '', meaningful: false })] })
    mockApi({ ...base, 'GET /api/practice/sessions/s1': () => json(200, { session: silent }) })
    renderApp('/dental/summary?id=s1')
    expect(await screen.findByText('No answers were scored in this session.')).toBeInTheDocument()
    expect(screen.getByText(/No words were recognized in your answers: check that your microphone is on and not muted/)).toBeInTheDocument()
    expect(screen.getByText(/does not use a free session/)).toBeInTheDocument()
    expect(screen.queryByText(/\d%/)).not.toBeInTheDocument()
  })

  it('prints the page: the Print button opens the browser\'s print dialog', async () => {
    const done = session({ status: 'completed', averageScore: 80, items: [item(1, { status: 'done', transcript: 'Hi.', feedback: feedback(80), meaningful: true })] })
    mockApi({ ...base, 'GET /api/practice/sessions/s1': () => json(200, { session: done }) })
    const print = vi.spyOn(window, 'print').mockImplementation(() => {})
    renderApp('/dental/summary?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }))
    expect(print).toHaveBeenCalledOnce()
    print.mockRestore()
  })

  it('reviews a saved session read-only, legacy feedback as text', async () => {
    mockApi({
      ...base,
      'GET /api/practice/saved/v1': () =>
        json(200, {
          saved: {
            id: 'v1',
            title: 'Monday practice',
            profession: 'dental',
            createdAt: '2025-09-08T10:00:00Z',
            overallAvg: 71.6,
            scored: true,
            totalSessionTime: 300,
            counts: { totalQuestions: 1, answered: 1, skipped: 0 },
            items: [{ question: 'Why?', tip: '', skipped: false, transcript: 'Because.', feedback: null, legacyFeedback: '<b>Strong</b> <img src=x onerror=alert(1)>answer' }],
          },
        }),
    })
    renderApp('/dental/summary?saved=v1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Monday practice' })).toBeInTheDocument()
    // When it was practised, worded and written as the lists write it.
    expect(screen.getByText(`Practiced ${sessionTime('2025-09-08T10:00:00Z')}`)).toBeInTheDocument()
    expect(screen.getByText('72%')).toHaveClass('bg-secondary')
    expect(screen.getByText('Strong answer')).toBeInTheDocument()
    expect(document.querySelector('article img')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Save Session' })).not.toBeInTheDocument()
  })
})

describe('setup', () => {
  it('sends a custom list as big3 false with its length as the count', async () => {
    const { calls } = mockApi({
      ...base,
      'GET /api/questions': () =>
        json(200, {
          questions: [
            { id: 'q1', text: 'Describe a team you led.', subtag: 'Teamwork', tip: '', big3: false, big3Order: 0, mainTags: ['dental'] },
            { id: 'q2', text: 'Tell me about yourself.', subtag: 'Big 3', tip: '', big3: true, big3Order: 1, mainTags: ['medical'] },
            { id: 'q3', text: 'Tell me about yourself.', subtag: 'Big 3', tip: '', big3: true, big3Order: 1, mainTags: ['dental'] },
          ],
        }),
      'POST /api/practice/sessions': () => json(201, { session: session({ id: 's9' }) }),
      'GET /api/practice/sessions/s9': () => json(200, { session: session({ id: 's9' }) }),
    })
    fakeMedia()
    const { router } = renderApp('/medical/setup')
    expect(await screen.findByText('Medical interview')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('radio', { name: /Custom/ }))
    await userEvent.click(screen.getByRole('radio', { name: /Audio/ }))
    expect(screen.getByRole('button', { name: 'Start Interview' })).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Write a question'), '  Why medicine?  {Enter}')
    await userEvent.type(screen.getByLabelText('Write a question'), 'why   MEDICINE?{Enter}')
    // The bank opens on the profession practised, each row labelled with its profession and subtag.
    const bank = await screen.findByRole('list', { name: 'Question bank' })
    expect(await within(bank).findByText('Medical · Big 3')).toBeInTheDocument()
    expect(within(bank).getAllByRole('listitem')).toHaveLength(1)
    await userEvent.selectOptions(screen.getByLabelText('Profession'), 'All professions')
    expect(within(bank).getAllByRole('listitem')).toHaveLength(3)
    expect(within(bank).getByText('Dental · Teamwork')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /^Add\W+Describe a team you led/ }))
    expect(screen.getByRole('button', { name: /Added/ })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await waitFor(() => expect(router.state.location.search).toBe('?id=s9'))
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'medical',
      mode: 'audio',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'custom',
      big3: false,
      questionCount: 2,
      questions: [{ text: 'Why medicine?' }, { text: 'Describe a team you led.' }],
    })
  })

  it('sends a random config and shows a refusal', async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/dental/setup')
    await userEvent.clear(await screen.findByLabelText('Number of questions'))
    await userEvent.type(screen.getByLabelText('Number of questions'), '3')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Upgrade to Practice to continue.')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'dental',
      mode: 'video',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'random',
      big3: true,
      questionCount: 3,
    })
  })

  it("opens on a guide's focus: that kind of question first, without the Big 3", async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/pa/setup?focus=Communication')
    expect(await screen.findByLabelText('Question focus')).toHaveValue('Communication')
    expect(screen.getByRole('checkbox', { name: /Start with the Big 3/ })).not.toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await screen.findByRole('alert')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'pa',
      mode: 'video',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'random',
      big3: false,
      focus: 'Communication',
      questionCount: 5,
    })
  })

  it('sends a format with its timings as edited and the extra time chosen', async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/medical/setup')
    await userEvent.click(await screen.findByRole('radio', { name: /MMI stations/ }))
    // Stations come from the bank's scenarios: no custom list and no Big 3.
    expect(screen.queryByRole('radio', { name: /Custom/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('checkbox', { name: /Start with the Big 3/ })).not.toBeInTheDocument()
    expect(screen.getByText(/MMI stations: 2 min to read, 7 min per answer/)).toBeInTheDocument()
    expect(screen.getByLabelText('Number of stations')).toHaveValue(6)
    expect(screen.getByLabelText('Reading time (seconds)')).toHaveValue(120)
    await userEvent.clear(screen.getByLabelText('Answer time (seconds)'))
    await userEvent.type(screen.getByLabelText('Answer time (seconds)'), '360')
    await userEvent.selectOptions(screen.getByLabelText('Extra time'), '2 × every limit')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await screen.findByRole('alert')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'medical',
      mode: 'video',
      format: 'mmi',
      extension: '2',
      timings: { prepSeconds: 120, answerSeconds: 360 },
      interviewType: 'random',
      big3: false,
      questionCount: 6,
    })

    // Casper-style adds the typing time; a timing out of bounds is refused by the field itself.
    await userEvent.click(screen.getByRole('radio', { name: /Casper-style/ }))
    expect(screen.getByLabelText('Typing time for both questions (seconds)')).toHaveValue(210)
    const perQuestion = screen.getByLabelText('Time per spoken question (seconds)')
    await userEvent.clear(perQuestion)
    await userEvent.type(perQuestion, '5')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    expect(perQuestion).toBeInvalid()
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')).toHaveLength(1)
    await userEvent.clear(perQuestion)
    await userEvent.type(perQuestion, '45')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')).toHaveLength(2))
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')[1]?.body).toMatchObject({
      format: 'casper',
      timings: { prepSeconds: 30, answerSeconds: 45, typedSeconds: 210 },
      questionCount: 2,
    })
  })

  it('refuses a locked student up front: the reason and the upgrade, no form to fill', async () => {
    const body = dashboardBody()
    const expired = 'Your free trial has ended. Upgrade to Premium to keep practicing.'
    const { calls } = mockApi({
      ...base,
      'GET /api/dashboard': () =>
        json(200, { ...body, access: { ...body.access, status: 'free_trial_expired', banner: expired, practiceEnabled: false, historyLocked: true } }),
    })
    renderApp('/dental/setup')
    expect(await screen.findByText(expired)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
    expect(screen.queryByRole('button', { name: 'Start Interview' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Number of questions')).not.toBeInTheDocument()
    expect(calls.some((c) => c.key === 'POST /api/practice/sessions')).toBe(false)
  })

  it('refuses a paused student up front with the pause and when it ends', async () => {
    mockApi({
      ...base,
      'GET /api/dashboard': () => json(200, dashboardBody({ usagePause: { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' } })),
    })
    renderApp('/dental/setup')
    expect(await screen.findByText(/Practice opens again/)).toBeInTheDocument()
    expect(screen.getByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Start Interview' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument()
  })

  it('ignores a focus it does not know', async () => {
    mockApi(base)
    renderApp('/pa/setup?focus=Gossip')
    expect(await screen.findByLabelText('Question focus')).toHaveValue('')
    expect(screen.getByRole('checkbox', { name: /Start with the Big 3/ })).toBeChecked()
  })
})
