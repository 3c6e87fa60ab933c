import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import type { Progress, TrendPoint } from '../api/get-progress'

const point = (id: string, at: string, overall: number, wpm: number | null): TrendPoint => ({
  sessionId: id,
  profession: 'dental',
  at,
  answers: 2,
  overallScore: overall,
  sectionScores: { overallImpression: overall - 2, clarityStructure: overall + 1, content: overall },
  wordsPerMinute: wpm,
  fillersPerMinute: wpm === null ? null : 2.5,
  longestPauseSeconds: null,
  eyeContactPercent: null,
  wellFramedPercent: null,
})

const competencies = (shown: Progress['competencies'][number]['competency'][]): Progress['competencies'] =>
  (['ethical-responsibility', 'empathy-compassion', 'teamwork'] as const).map((c) => ({
    competency: c,
    count: shown.includes(c) ? 6 : 0,
    answers: shown.includes(c) ? [{ sessionId: 's2', itemId: `i-${c}`, question: 'Tell me about a patient you helped.', answeredAt: '2026-09-09T10:00:00Z', overallScore: 84 }] : [],
  }))

function mock(progress: (url: URL) => Progress) {
  return mockApi({
    'GET /api/auth/me': () => json(200, { user: user() }),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/dashboard': () => json(200, dashboardBody()),
    'GET /api/practice/progress': (req) => json(200, progress(new URL(req.url))),
  })
}

describe('progress', () => {
  it('charts the sessions, gives the same figures as a table, and maps the competencies with the gaps', async () => {
    mock(() => ({
      locked: false,
      subtags: ['Ethical'],
      points: [point('s1', '2026-09-08T10:00:00Z', 40, null), point('s2', '2026-09-09T10:00:00Z', 72.5, 131.2)],
      competencies: competencies(['empathy-compassion']),
    }))
    renderApp('/dental/progress')
    const scores = await screen.findByRole('img', { name: /^Scores\./ })
    expect(scores).toHaveAccessibleName(/Overall: from 40 to 72\.5/)
    expect(screen.getByRole('img', { name: /^Words per minute\. Words per minute: 131\.2 wpm/ })).toBeInTheDocument()
    // No session has a longest pause: the card says why instead of drawing an empty chart.
    expect(screen.queryByRole('img', { name: /^Longest pause/ })).not.toBeInTheDocument()
    expect(screen.getByText('Not measured yet: it needs recorded answers with word timings.')).toBeInTheDocument()

    const table = screen.getByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(within(rows[2]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(expect.arrayContaining(['72.5', '131.2', '2.5', '—']))
    expect(within(rows[1]!).getByRole('link')).toHaveAttribute('href', '/dental/summary?id=s1')

    const map = screen.getByRole('region', { name: 'Competency map' })
    expect(within(map).getByText('Empathy & compassion')).toBeInTheDocument()
    expect(within(map).getByText('6 answers')).toBeInTheDocument()
    expect(within(map).getByText('The 1 most recent are listed.')).toBeInTheDocument()
    expect(within(map).getByRole('link', { name: 'Tell me about a patient you helped.' })).toHaveAttribute('href', '/dental/summary?id=s2')
    const gaps = within(map).getByRole('heading', { name: 'Not shown yet' }).parentElement!
    expect(within(gaps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Ethical responsibility', 'Teamwork'])
  })

  it('asks the server for one question type', async () => {
    const { calls } = mock((url) => ({
      locked: false,
      subtags: ['Ethical', 'Teamwork'],
      points: url.searchParams.get('subtag') === 'Teamwork' ? [] : [point('s1', '2026-09-08T10:00:00Z', 60, 120)],
      competencies: competencies([]),
    }))
    renderApp('/dental/progress')
    await userEvent.selectOptions(await screen.findByLabelText('Question type'), 'Teamwork')
    expect(await screen.findByText(/No completed session has a Teamwork question yet\./)).toBeInTheDocument()
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/practice/progress')).toHaveLength(2))
  })

  it('is locked with the history', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody({ access: { historyLocked: true } })),
    })
    renderApp('/dental/progress')
    expect(await screen.findByText('Your progress is locked until you upgrade.')).toBeInTheDocument()
    expect(calls.some((c) => c.key === 'GET /api/practice/progress')).toBe(false)
  })
})
