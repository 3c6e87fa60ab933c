import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import { freeSessionCost } from './setup-access'

function withAccess(access: Record<string, unknown>) {
  const body = dashboardBody()
  mockApi({
    'GET /api/auth/me': () => json(200, { user: user() }),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/dashboard': () => json(200, { ...body, access: { ...body.access, ...access } }),
  })
}

describe('the setup', () => {
  it('says what the session will cost a student on the free trial before it starts (issue 41)', async () => {
    withAccess({ freeSessionsRemaining: 2 })
    renderApp('/dental/setup')
    expect(await screen.findByText('This session will use 1 of your 2 free sessions once one of its answers gets feedback. A session without any uses none.')).toBeVisible()
    expect(screen.getByRole('button', { name: 'Start Interview' })).toBeVisible()
  })

  it('names the last free session as such, and says nothing of it to a student with a pass', async () => {
    expect(freeSessionCost(1)).toBe('This session will use your last free session once one of its answers gets feedback. A session without any uses none.')
    withAccess({ status: 'paid_active', freeSessionsRemaining: 0, badge: 'Premium' })
    renderApp('/dental/setup')
    expect(await screen.findByRole('button', { name: 'Start Interview' })).toBeVisible()
    expect(screen.queryByText(/free session/)).not.toBeInTheDocument()
  })
})
