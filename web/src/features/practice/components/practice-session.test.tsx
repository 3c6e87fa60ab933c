import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { dashboardBody, json, mockApi } from '@/test/api-mock'
import { fakeMedia, setUpFakeMedia } from '@/test/fake-media'
import { stubXhr } from '@/test/fake-xhr'
import { base, HEAVY_USAGE, item, session } from '@/test/practice'
import { renderApp } from '@/test/render'

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

setUpFakeMedia()

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

  it('stops the recorder when the usage guard refuses the recording, says so on the session screen, and completes the session', async () => {
    const { recorders } = fakeMedia()
    let paused = false
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session() }),
      [PIECE]: () => {
        paused = true
        return json(403, { title: 'Forbidden', status: 403, detail: HEAVY_USAGE })
      },
      'GET /api/dashboard': () => json(200, dashboardBody(paused ? { usagePause: { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' } } : {})),
      'POST /api/practice/sessions/s1/complete': () => json(200, { session: session({ status: 'completed', items: [item(1, { status: 'skipped' }), item(2, { status: 'skipped' })] }) }),
    })
    const { router } = renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    const heading = await screen.findByRole('heading', { level: 1, name: 'Practice is paused' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(router.state.location.pathname).toBe('/dental/session')
    expect(screen.getByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.getByText(/^Practice opens again on /)).toBeInTheDocument()
    expect(screen.getByText('The answer you had begun could not be sent, so it is not kept.')).toBeInTheDocument()
    expect(recorders.map((r) => r.calls)).toEqual([['start', 'stop']])
    expect(screen.queryByRole('button', { name: /Recording/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Upgrade/ })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Complete Session' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/summary'))
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions/s1/complete')).toHaveLength(1)
  })

  it('ends the session after the answer that used the last of the allowance: it is kept, and the next question never starts', async () => {
    fakeMedia()
    let finished = false
    const pause = { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' }
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session() }),
      [PIECE]: pieceServer().handler,
      [FINISH]: () => {
        finished = true
        return json(202, { item: item(1, { status: 'queued' }) })
      },
      'GET /api/dashboard': () => json(200, dashboardBody(finished ? { usagePause: pause } : {})),
      'POST /api/practice/sessions/s1/complete': () => json(200, { session: session({ status: 'completed', items: [item(1, { status: 'queued' }), item(2, { status: 'skipped' })], processing: true }) }),
    })
    const { router } = renderApp('/dental/session?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Start Recording' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }))
    expect(await screen.findByText('Uploaded')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Next Question' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Practice is paused' })).toBeInTheDocument()
    expect(screen.getByText('Your last answer was saved and is being scored with the others. The session ends here.')).toBeInTheDocument()
    expect(screen.queryByText('Question 2?')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Start Recording' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Complete Session' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/summary'))
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions/s1/complete')).toHaveLength(1)
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
