import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const saved = (id: string, title: string, format = 'traditional', scored = true) => ({
  id,
  title,
  profession: 'dental',
  format,
  createdAt: '2026-09-08T10:00:00Z',
  overallAvg: scored ? 71.6 : 0,
  scored,
  totalSessionTime: 300,
  counts: { totalQuestions: 3, answered: 2, skipped: 1 },
  items: [],
})

describe('history', () => {
  it('lists saved sessions with Review links and filters on the server', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
      'GET /api/practice/history': () => json(200, { sessions: [saved('s1', 'Ethics run'), saved('s2', 'Station run', 'mmi'), saved('s3', 'Silent run', 'traditional', false)], total: 21, page: 1, pageSize: 20, searchLimit: 500, searchLimited: false }),
    })
    renderApp('/dental/history')
    expect(await screen.findByRole('heading', { name: 'Session history' })).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Review Ethics run' })).toHaveAttribute('href', '/dental/summary?saved=s1')
    expect(screen.getByText('21 sessions · Page 1 of 2')).toBeInTheDocument()

    expect(screen.getByText(/MMI stations · 2 of 3 answered/)).toBeInTheDocument()
    // Answered but nothing scored: said so, never "0%".
    expect(screen.getByText(/2 of 3 answered · No answer could be scored/)).toBeInTheDocument()
    expect(screen.getByText('Not scored')).toBeInTheDocument()
    expect(screen.queryByText('0%')).not.toBeInTheDocument()
    expect(screen.queryByText(/Traditional ·/)).not.toBeInTheDocument()
    expect(screen.queryByText(/The search looked through/)).not.toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Question contains'), 'ethics')
    await userEvent.selectOptions(screen.getByLabelText('Format'), 'MMI stations')
    await userEvent.click(screen.getByRole('button', { name: 'Show sessions' }))
    const urls = () => (globalThis.fetch as unknown as { mock: { calls: [Request][] } }).mock.calls.map(([r]) => new URL(r.url))
    await waitFor(() => expect(urls().some((u) => u.searchParams.get('q') === 'ethics' && u.searchParams.get('format') === 'mmi')).toBe(true))
  })

  it('says when a search looked through only the newest sessions', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
      'GET /api/practice/history': () => json(200, { sessions: [], total: 0, page: 1, pageSize: 20, searchLimit: 500, searchLimited: true }),
    })
    renderApp('/dental/history')
    expect(
      await screen.findByText('The search looked through your newest 500 sessions that match the other filters. Choose earlier dates to search older ones.'),
    ).toBeInTheDocument()
  })
})
