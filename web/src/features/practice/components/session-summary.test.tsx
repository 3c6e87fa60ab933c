import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { deferred, json, mockApi, problem } from '@/test/api-mock'
import { base, feedback, item, session } from '@/test/practice'
import { renderApp } from '@/test/render'

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
})
