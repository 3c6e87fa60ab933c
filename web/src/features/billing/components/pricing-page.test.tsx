import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

describe('pricing', () => {
  it('shows three plans and the FAQs; signed out, plans lead to signup', async () => {
    mockApi({
      'GET /api/auth/me': () => problem(401, 'Sign in first.'),
      'GET /api/professions': () => json(200, professionsBody),
    })
    renderApp('/medical/pricing')
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeInTheDocument()
    for (const plan of ['Free', 'Premium', '1:1 mock interview']) expect(screen.getByRole('heading', { name: plan })).toBeInTheDocument()
    expect(screen.getByText('$29')).toBeInTheDocument()
    expect(screen.getByText('$75')).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Get Premium' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Start free trial' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Request by email' })).toHaveAttribute(
      'href',
      'mailto:support@whitecoat.app?subject=1%3A1%20mock%20interview%20request',
    )
    expect(screen.getByText('Can I get a refund?')).toBeInTheDocument()
    expect(screen.getByText(/within 7 days of buying your pass/)).toBeInTheDocument()
  })

  it('offers "Upgrade" to a signed-in student without access, and practice to one with it', async () => {
    const body = dashboardBody()
    let enabled = false
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, { ...body, access: { ...body.access, practiceEnabled: enabled } }),
    })
    const { unmount } = renderApp('/dental/pricing')
    expect(await screen.findByRole('button', { name: 'Upgrade' })).toBeEnabled()
    expect(screen.getByRole('link', { name: 'Start practice' })).toHaveAttribute('href', '/dental/setup')
    unmount()
    enabled = true
    renderApp('/pt/pricing')
    expect(await screen.findAllByRole('link', { name: 'Start practice' })).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument()
  })
})
