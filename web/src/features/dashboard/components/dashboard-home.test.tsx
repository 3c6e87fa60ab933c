import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LAST_PROFESSION_KEY } from '@/lib/professions'
import { dashboardBody, json, mockApi, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import { NO_AVERAGE_YET } from './dashboard-home'
import { formatPauseEnd } from '@/components/usage-pause-notice'

const HEAVY_USAGE =
  "We've noticed unusually heavy usage on your account. To ensure fair access for all users, we've temporarily paused usage. If you believe this is a mistake, please contact support."

function withDashboard(body: ReturnType<typeof dashboardBody> & { usagePause?: { message: string; endsAt: string } }) {
  mockApi({
    'GET /api/auth/me': () => json(200, { user: user() }),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/dashboard': () => json(200, body),
  })
}

const saved = (id: string, title: string, overallAvg: number, scored = true) => ({
  id,
  title,
  profession: 'medical',
  createdAt: '2025-09-08T10:00:00Z',
  overallAvg,
  scored,
  totalSessionTime: 300,
  counts: { totalQuestions: 3, answered: 2, skipped: 1 },
  items: [],
})

describe('dashboard', () => {
  it('shows access, stats and recent sessions with Review links; practice goes to the last profession', async () => {
    window.localStorage.setItem(LAST_PROFESSION_KEY, 'pt')
    withDashboard(
      dashboardBody({
        stats: { sessionsCompleted: 1, questionsPracticed: 2, averageScore: 83 },
        recentSessions: [saved('a', 'Strong run', 83.4), saved('b', 'Warm-up', 64), saved('c', 'Silent mic', 0, false), saved('d', 'Middling', 74.6)],
      }),
    )
    renderApp('/dental/dashboard')
    expect(await screen.findByText('Free Trial')).toBeInTheDocument()
    expect(screen.getByText('Continue your interview preparation journey')).toBeInTheDocument()
    expect(screen.getByText('Free trial: 7 days left and 2 free sessions remaining.')).toBeInTheDocument()
    expect(screen.getAllByText('83%')[0]).toHaveClass('text-3xl')
    const recent = within(screen.getByRole('heading', { name: 'Recent Practice Sessions' }).closest('div')!.parentElement!)
    expect(recent.getByText('83%')).toHaveClass('bg-primary')
    // The summary's bands (spec §9): a 64 % session is as red here as there.
    expect(recent.getByText('64%')).toHaveClass('bg-destructive')
    expect(recent.getByText('75%')).toHaveClass('bg-secondary')
    // A session with no scored answer says so, never 0 %.
    expect(recent.getByText('Not scored')).toBeInTheDocument()
    expect(recent.getByText(/No answer could be scored/)).toBeInTheDocument()
    expect(recent.queryByText('0%')).not.toBeInTheDocument()
    expect(recent.getByRole('link', { name: 'Review Strong run' })).toHaveAttribute('href', '/medical/summary?saved=a')
    // Start goes to the last profession used (spec §2), which opening the
    // dashboard under /dental does not change.
    expect(screen.getByRole('link', { name: 'Start practice' })).toHaveAttribute('href', '/pt/setup')
    expect(window.localStorage.getItem(LAST_PROFESSION_KEY)).toBe('pt')
  })

  it('a new student sees no average of 0 %, but the empty state', async () => {
    withDashboard(dashboardBody())
    renderApp('/dental/dashboard')
    const average = within((await screen.findByText('Average Score')).closest('.rounded-xl') as HTMLElement)
    expect(average.getByText(NO_AVERAGE_YET)).toBeInTheDocument()
    expect(screen.queryByText('0%')).not.toBeInTheDocument()
  })

  it('locks practice: no way into setup, one upgrade action, and the banner says why', async () => {
    const body = dashboardBody()
    const banner = "You've used your 2 free sessions. Upgrade to Premium to keep practicing."
    withDashboard({ ...body, access: { ...body.access, practiceEnabled: false, freeSessionsRemaining: 0, banner } })
    renderApp('/dental/dashboard')
    expect(await screen.findByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
    expect(screen.queryByRole('link', { name: 'Start practice' })).not.toBeInTheDocument()
    expect(screen.getByText(banner)).toBeInTheDocument()
    // One upgrade action, not "Upgrade to Practice" beside "Upgrade to Premium".
    expect(screen.getAllByRole('button', { name: /upgrade|buy/i })).toHaveLength(1)
  })

  it('offers Premium to a trial student who may still practise', async () => {
    withDashboard(dashboardBody())
    renderApp('/dental/dashboard')
    expect(await screen.findByRole('link', { name: 'Start practice' })).toHaveAttribute('href', '/dental/setup')
    expect(screen.getByRole('button', { name: 'Upgrade to Premium' })).toBeEnabled()
  })

  it('shows a usage pause as a state: the message, when practice opens again, and Start disabled', async () => {
    const endsAt = '2025-09-09T15:30:00Z'
    const body = dashboardBody()
    withDashboard({
      ...body,
      access: { ...body.access, status: 'paid_active', badge: 'Premium (365 days left)', banner: 'Premium: 365 days remaining.' },
      usagePause: { message: HEAVY_USAGE, endsAt },
    })
    renderApp('/dental/dashboard')
    expect(await screen.findByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.getByText(`Practice opens again ${formatPauseEnd(endsAt)}.`)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Start practice' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start practice' })).toBeDisabled()
  })

  it('offers no Premium beside a pause on the trial: paying would not lift it', async () => {
    withDashboard({ ...dashboardBody(), usagePause: { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' } })
    renderApp('/dental/dashboard')
    expect(await screen.findByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.getByText('Free trial: 7 days left and 2 free sessions remaining.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Upgrade to Premium' })).not.toBeInTheDocument()
  })
})
