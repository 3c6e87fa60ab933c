import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi } from '@/test/api-mock'
import { base, feedback, item, session } from '@/test/practice'
import { renderApp } from '@/test/render'

describe('summary', () => {
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
    const compare = await screen.findByRole('group', { name: 'You answered this question before' })
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
    const compare = await screen.findByRole('group', { name: 'You answered this question before' })
    expect(within(compare).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Score', 'Overall impression', 'Clarity & structure', 'Content'])
  })
})
