import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, professionsBody, siteFactsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const pricingPage = {
  key: 'pricing',
  profession: 'medical',
  path: '/medical/pricing',
  title: 'Pricing',
  description: 'Plans.',
  html: '',
  headings: [],
  faq: [{ question: 'Can I get a refund?', answer: 'Yes.', answerHtml: '<p>Yes. Write within 7 days of buying your pass for a full refund.</p>' }],
}

describe('pricing', () => {
  it('shows three plans and the FAQs; signed out, plans lead to signup', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/site/pages/medical/pricing': () => json(200, pricingPage),
      'GET /api/site': () => json(200, { ...siteFactsBody, supportEmail: 'help@operator.test', trialDays: 5 }),
    })
    renderApp('/medical/pricing')
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeInTheDocument()
    for (const plan of ['Free', 'Premium', '1:1 mock interview']) expect(await screen.findByRole('heading', { name: plan })).toBeInTheDocument()
    expect(screen.getByText('for 5 days')).toBeInTheDocument()
    expect(screen.getByText('$29')).toBeInTheDocument()
    expect(screen.getByText('$75')).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: 'Get Premium' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Start free trial' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Request by email' })).toHaveAttribute(
      'href',
      'mailto:help@operator.test?subject=1%3A1%20mock%20interview%20request',
    )
    expect(await screen.findByText('Can I get a refund?')).toBeInTheDocument()
    expect(screen.getByText(/within 7 days of buying your pass/)).toBeInTheDocument()
  })

  it('offers "Upgrade" to a trial student and a locked one, whose Free plan says why instead of leading to practice', async () => {
    const body = dashboardBody()
    const expired = "Your free trial has ended. Upgrade to Premium to keep practicing."
    let access: Record<string, unknown> = body.access
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, { ...body, access }),
      'GET /api/site/pages/dental/pricing': () => json(200, pricingPage),
      'GET /api/site/pages/pt/pricing': () => json(200, pricingPage),
    })
    // On the trial with sessions left: practise free, or buy Premium now.
    let view = renderApp('/dental/pricing')
    expect(await screen.findByRole('button', { name: 'Upgrade' })).toBeEnabled()
    expect(screen.getByRole('link', { name: 'Start practice' })).toHaveAttribute('href', '/dental/setup')
    view.unmount()

    // Trial over: no way into a setup that would refuse; the reason instead.
    access = { ...body.access, status: 'free_trial_expired', badge: 'Trial Expired', banner: expired, practiceEnabled: false, historyLocked: true }
    view = renderApp('/dental/pricing')
    expect(await screen.findByRole('button', { name: 'Upgrade' })).toBeEnabled()
    expect(screen.getByText(expired)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Start practice' })).not.toBeInTheDocument()
    view.unmount()

    // With Premium: practice, nothing to buy.
    access = { ...body.access, status: 'paid_active', badge: 'Premium (300 days left)', banner: 'Premium: 300 days remaining.' }
    renderApp('/pt/pricing')
    expect(await screen.findAllByRole('link', { name: 'Start practice' })).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument()
  })

  it('says payments are simulated on a server with the development checkout, and nothing on one with Stripe', async () => {
    const routes = {
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/site/pages/medical/pricing': () => json(200, pricingPage),
      'GET /api/site': () => json(200, siteFactsBody),
    }
    mockApi({ ...routes, 'GET /api/payments/mode': () => json(200, { mode: 'simulated' }) })
    const { unmount } = renderApp('/medical/pricing')
    expect(await screen.findByRole('heading', { name: 'Payments are simulated on this server' })).toBeInTheDocument()
    expect(screen.getByText(/Upgrade grants a Premium pass for free/)).toBeInTheDocument()
    unmount()

    mockApi({ ...routes, 'GET /api/payments/mode': () => json(200, { mode: 'stripe' }) })
    renderApp('/medical/pricing')
    expect(await screen.findByText('Can I get a refund?')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Payments are simulated on this server' })).not.toBeInTheDocument()
  })
})
