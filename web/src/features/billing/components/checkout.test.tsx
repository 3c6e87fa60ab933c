import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { dashboardBody, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import { checkoutNavigation } from './upgrade-button'

describe('checkout from the dashboard', () => {
  it('locks practice; the one "Upgrade to Practice" starts checkout and the banner says why', async () => {
    const body = dashboardBody()
    const banner = "You've used your 2 free sessions. Upgrade to Premium to keep practicing."
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {})
    let sent: unknown
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, { ...body, access: { ...body.access, practiceEnabled: false, freeSessionsRemaining: 0, banner } }),
      'POST /api/create-checkout-session': async (req) => {
        sent = await req.json()
        return json(200, { url: 'https://checkout.stripe.com/c/pay/cs_test_1' })
      },
    })
    renderApp('/medical/dashboard')
    const upgrade = await screen.findByRole('button', { name: 'Upgrade to Practice' })
    expect(screen.queryByRole('link', { name: 'Start practice' })).not.toBeInTheDocument()
    expect(screen.getByText(banner)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Upgrade to Premium' })).not.toBeInTheDocument()
    await userEvent.click(upgrade)
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'))
    expect(sent).toEqual({ profession: 'medical' })
    go.mockRestore()
  })

  it('says when payments are not set up, with the support address', async () => {
    const body = dashboardBody()
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, { ...body, access: { ...body.access, practiceEnabled: false } }),
      'POST /api/create-checkout-session': () => problem(503, 'Payments are not set up on this server yet.'),
    })
    renderApp('/dental/dashboard')
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade to Practice' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Payments are not set up on this server yet.')
    expect(within(alert).getByRole('link', { name: 'support@whitecoat.app' })).toHaveAttribute('href', 'mailto:support@whitecoat.app')
  })

  it('confirms a returning payment, then says until when Premium runs', async () => {
    const body = dashboardBody()
    let paid = false
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () =>
        json(
          200,
          paid
            ? { ...body, access: { ...body.access, status: 'paid_active', badge: 'Premium (365 days left)', subscriptionEndsAt: '2027-09-10T12:00:00Z' } }
            : body,
        ),
    })
    const { router } = renderApp('/dental/dashboard?checkout=success')
    expect(await screen.findByText('Thank you! We are confirming your payment…')).toBeInTheDocument()
    // Until the pass is granted, a reload must still wait for it.
    expect(router.state.location.search).toBe('?checkout=success')
    paid = true
    expect(await screen.findByText('Premium is active until September 10, 2027.')).toBeInTheDocument()
    expect(screen.getByText('Premium (365 days left)')).toBeInTheDocument()
    // Then the address forgets the return, so a reload does not announce it again; the note stays for this visit.
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(screen.getByText('Premium is active until September 10, 2027.')).toBeInTheDocument()
  })

  it('returns from a cancelled checkout with a neutral note', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
    })
    const { router } = renderApp('/dental/dashboard?checkout=cancelled')
    expect(await screen.findByText('Checkout was canceled. You have not been charged.')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.search).toBe(''))
    expect(router.state.location.pathname).toBe('/dental/dashboard')
    expect(screen.getByText('Checkout was canceled. You have not been charged.')).toBeInTheDocument()
  })
})
