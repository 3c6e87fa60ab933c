import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { LAST_PROFESSION_KEY } from '@/lib/professions'
import { dashboardBody, deferred, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

function signedOut() {
  return mockApi({
    'GET /api/auth/me': () => json(200, {}),
    'GET /api/professions': () => json(200, professionsBody),
  })
}

function signedIn(overrides: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/auth/me': () => json(200, { user: user(overrides) }),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/dashboard': () => json(200, dashboardBody()),
    'POST /api/auth/logout': () => json(204, null),
  })
}

describe('route table', () => {
  it('/ redirects to /dental', async () => {
    signedOut()
    const { router } = renderApp('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Nail Your Dental School Interviews.' })).toBeInTheDocument()
  })

  it('treats the profession case-insensitively', async () => {
    signedOut()
    const { router } = renderApp('/DENTAL')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Nail Your Dental School Interviews.' })).toBeInTheDocument()
  })

  it('keeps the rest of the path when fixing the case', async () => {
    signedOut()
    const { router } = renderApp('/Medical/pricing')
    await waitFor(() => expect(router.state.location.pathname).toBe('/medical/pricing'))
  })

  it.each(['/nursing', '/foo/pricing'])('sends an unknown profession %s to / (then /dental)', async (path) => {
    signedOut()
    const { router } = renderApp(path)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'))
  })

  it.each(['/dental/nope', '/a/b/c/d', '/dental/resources/nope'])('sends an unknown path %s to /dental', async (path) => {
    signedOut()
    const { router } = renderApp(path)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'))
  })

  it.each(['medical', 'pt', 'pa', 'pharmacy', 'ot', 'veterinary'])('accepts /%s and remembers it', async (slug) => {
    signedOut()
    const { router } = renderApp(`/${slug}`)
    await screen.findAllByRole('link', { name: 'Create free account' })
    expect(router.state.location.pathname).toBe(`/${slug}`)
    await waitFor(() => expect(window.localStorage.getItem(LAST_PROFESSION_KEY)).toBe(slug))
  })

  it.each(['/dental/dashboard', '/dental/setup', '/medical/session', '/dental/summary', '/dental/admin'])(
    'redirects a signed-out visitor from %s to /login with from, replacing history',
    async (path) => {
      signedOut()
      const { router } = renderApp(path)
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
      expect(router.state.location.state).toEqual({ from: path })
      expect(router.state.historyAction).toBe('REPLACE')
      expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument()
    },
  )

  it('shows "Loading..." while auth state loads', async () => {
    const me = deferred<Response>()
    mockApi({ 'GET /api/auth/me': () => me.promise.then((r) => r.clone()), 'GET /api/professions': () => json(200, professionsBody) })
    renderApp('/dental/setup')
    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    me.resolve(json(200, { user: user() }))
    expect(await screen.findByRole('heading', { name: 'Set up your interview' })).toBeInTheDocument()
  })

  it('resolves /dashboard and /admin to the last profession', async () => {
    window.localStorage.setItem(LAST_PROFESSION_KEY, 'medical')
    signedIn({ role: 'admin' })
    const { router } = renderApp('/admin')
    await waitFor(() => expect(router.state.location.pathname).toBe('/medical/admin'))
    expect(await screen.findByRole('heading', { name: 'Admin dashboard' })).toBeInTheDocument()
  })

  it('sends a non-admin away from the admin page to / (then /dental)', async () => {
    signedIn({ role: 'user' })
    const { router } = renderApp('/dental/admin/questions')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental'))
  })

  it('matches the account routes before the catch-all', async () => {
    signedOut()
    const { router } = renderApp('/verify-email?token=abc')
    expect(await screen.findByRole('button', { name: 'Confirm my email' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/verify-email')
  })
})

describe('layout', () => {
  it('shows the header with Log in / Get started when signed out, and the footer on the profession home', async () => {
    signedOut()
    renderApp('/dental')
    const header = await screen.findByRole('banner')
    expect(await within(header).findByRole('link', { name: 'Get started' })).toBeInTheDocument()
    expect(within(header).getByRole('link', { name: 'Log in' })).toBeInTheDocument()
    expect(within(header).getAllByRole('link', { name: 'Pricing' })[0]).toHaveAttribute('href', '/dental/pricing')
    const footer = screen.getByRole('contentinfo')
    expect(within(footer).getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features')
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument()
  })

  it('has no footer off the profession home', async () => {
    signedOut()
    renderApp('/dental/pricing')
    await screen.findByRole('heading', { name: 'Pricing' })
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument()
  })

  it.each(['/dental/setup', '/dental/session', '/dental/summary'])('hides the header on %s', async (path) => {
    signedIn()
    renderApp(path)
    await screen.findByRole('link', { name: 'Back to Dashboard' })
    expect(screen.queryByRole('banner')).not.toBeInTheDocument()
  })

  it('shows Dashboard and Logout when signed in; logout goes to the profession home', async () => {
    const { calls } = signedIn()
    const { router } = renderApp('/medical/dashboard')
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
    const header = screen.getByRole('banner')
    await userEvent.click(within(header).getAllByRole('button', { name: 'Logout' })[0]!)
    await waitFor(() => expect(router.state.location.pathname).toBe('/medical'))
    expect(calls.some((c) => c.key === 'POST /api/auth/logout')).toBe(true)
    expect(await within(header).findByRole('link', { name: 'Get started' })).toBeInTheDocument()
  })

  it('switches profession keeping the rest of the path', async () => {
    signedOut()
    const { router } = renderApp('/dental/resources/ethics')
    await userEvent.click(await screen.findByRole('button', { name: /Change profession/ }))
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Medical' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/medical/resources/ethics'))
    expect(window.localStorage.getItem(LAST_PROFESSION_KEY)).toBe('medical')
  })

  it('toggles the small-screen menu', async () => {
    signedOut()
    renderApp('/dental')
    const toggle = await screen.findByRole('button', { name: 'Open menu' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(toggle)
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeVisible()
  })
})

describe('landing', () => {
  it('offers "Start a practice session" to signed-in users', async () => {
    signedIn()
    renderApp('/medical')
    const links = await screen.findAllByRole('link', { name: 'Start a practice session' })
    expect(links[0]).toHaveAttribute('href', '/medical/dashboard')
    expect(screen.queryByRole('link', { name: 'Create free account' })).not.toBeInTheDocument()
  })

  it('renders the copy the server wrote into the page without waiting for the API', async () => {
    const never = deferred<Response>()
    const api = mockApi({ 'GET /api/auth/me': () => json(200, {}), 'GET /api/professions': () => never.promise })
    const script = document.createElement('script')
    script.type = 'application/json'
    script.dataset.apiPath = '/api/professions'
    script.textContent = JSON.stringify(professionsBody)
    document.head.append(script)
    try {
      renderApp('/dental')
      expect(await screen.findByRole('heading', { level: 1, name: 'Nail Your Dental School Interviews.' })).toBeInTheDocument()
      expect(api.calls.map((c) => c.key)).not.toContain('GET /api/professions')
    } finally {
      script.remove()
    }
  })

  it('shows an error with a retry when the profession copy cannot load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    mockApi({ 'GET /api/auth/me': () => json(200, {}), 'GET /api/professions': () => problem(500, 'boom') })
    renderApp('/dental')
    expect(await screen.findByText("We couldn't load this page's content.")).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})

describe('session end', () => {
  it('a 401 from any API call marks the user signed out', async () => {
    const { api } = await import('@/lib/api-client')
    signedIn()
    const { router } = renderApp('/dental/setup')
    await screen.findByRole('heading', { name: 'Set up your interview' })
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/verification/resend': () => problem(401, 'Please log in to continue.'),
    })
    await api.POST('/api/auth/verification/resend', { body: { email: 'a@b.c' } })
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })
})

describe('dashboard', () => {
  it('shows the yellow notice to unverified users, with a resend button', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, { user: user({ emailVerified: false }) }),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/verification/resend': () => json(202, { message: 'If that address has an account, we sent a new link.' }),
    })
    renderApp('/dental/dashboard')
    expect(await screen.findByRole('heading', { name: 'Verify your email to unlock the app' })).toBeInTheDocument()
    expect(screen.queryByText(/Welcome/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification email' }))
    expect((await screen.findAllByText('If that address has an account, we sent a new link.')).length).toBeGreaterThan(0)
    expect(calls.find((c) => c.key === 'POST /api/auth/verification/resend')?.body).toEqual({ email: 'ada@example.com' })
  })

  it('shows "Checking access…" while the user reloads', async () => {
    const me = deferred<Response>()
    mockApi({
      'GET /api/auth/me': () => me.promise.then((r) => r.clone()),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
    })
    renderApp('/dental/dashboard')
    expect(await screen.findByText('Loading...')).toBeInTheDocument()
    me.resolve(json(200, { user: user() }))
    expect(await screen.findByText('Welcome, Ada Lovelace')).toBeInTheDocument()
  })
})
