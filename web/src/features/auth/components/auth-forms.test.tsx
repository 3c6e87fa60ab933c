import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { dashboardBody, deferred, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { rememberedTryOf, rememberTry } from '@/lib/pending-try'
import { renderApp } from '@/test/render'

beforeEach(() => {
  // The forms log failures (spec §8); keep the test output readable.
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

async function fillLogin(email = 'ada@example.com', password = 'correct horse') {
  await userEvent.type(await screen.findByLabelText('Email'), email)
  await userEvent.type(screen.getByLabelText('Password'), password)
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
}

describe('login form', () => {
  it('labels its inputs and marks them required', async () => {
    mockApi({ 'GET /api/auth/me': () => json(200, {}), 'GET /api/professions': () => json(200, professionsBody) })
    renderApp('/login')
    expect(await screen.findByLabelText('Email')).toHaveAttribute('type', 'email')
    expect(screen.getByLabelText('Email')).toBeRequired()
    expect(screen.getByLabelText('Password')).toBeRequired()
  })

  it('shows "Logging in..." then goes back to from', async () => {
    const login = deferred<Response>()
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => login.promise,
    })
    const { router } = renderApp('/dental/setup')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    await fillLogin()
    expect(await screen.findByText('Logging in...')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled()
    login.resolve(json(200, { user: user() }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/setup'))
    expect(calls.find((c) => c.key === 'POST /api/auth/login')?.body).toEqual({ email: 'ada@example.com', password: 'correct horse' })
  })

  it('shows the server error after a cross', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => problem(401, 'Invalid email or password.', 'Unauthorized'),
    })
    renderApp('/login')
    await fillLogin()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('✕ Invalid email or password.')
  })

  it('shows the first validation error when there is no detail', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => json(422, { title: 'Unprocessable Entity', status: 422, errors: [{ message: 'expected string', location: 'body.email' }] }),
    })
    renderApp('/login')
    await fillLogin()
    expect(await screen.findByRole('alert')).toHaveTextContent('✕ expected string')
  })

  it('sends an admin to /admin (the last profession\'s admin page)', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => json(200, { user: user({ role: 'admin' }) }),
    })
    const { router } = renderApp('/login')
    await fillLogin()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/admin'))
  })

  it('asks an enrolled admin for a code, focused, then sends them to /admin', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => json(200, { user: user({ role: 'admin' }), secondFactor: 'code' }),
      'POST /api/auth/second-factor': async (req) =>
        ((await req.json()) as { code: string }).code === '123456'
          ? json(200, { user: user({ role: 'admin' }) })
          : problem(400, 'That code is not right.'),
    })
    const { router } = renderApp('/login')
    await fillLogin()
    const field = await screen.findByLabelText('Authentication code')
    await waitFor(() => expect(field).toHaveFocus())
    expect(field).toHaveAttribute('autocomplete', 'one-time-code')
    expect(field).toHaveAttribute('inputmode', 'numeric')
    expect(router.state.location.pathname).toBe('/login')
    await userEvent.type(field, '000000')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('✕ That code is not right.')
    await userEvent.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }))
    expect(screen.getByLabelText('Recovery code')).toHaveAttribute('inputmode', 'text')
    await userEvent.click(screen.getByRole('button', { name: 'Use a code from the authenticator app' }))
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/admin'))
    expect(calls.filter((c) => c.key === 'POST /api/auth/second-factor').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }])
  })

  it('walks an admin without a second factor through enrolment and shows the recovery codes once', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => json(200, { user: user({ role: 'admin' }), secondFactor: 'enrol' }),
      'POST /api/auth/second-factor/enrolment': () =>
        json(200, { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Whitecoat:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }),
      'POST /api/auth/second-factor/enrolment/confirm': () =>
        json(200, { user: user({ role: 'admin' }), recoveryCodes: ['aaaa-bbbb-cccc-dddd-eeee-ffff', 'gggg-hhhh-iiii-jjjj-kkkk-llll'] }),
    })
    const { router } = renderApp('/login')
    await fillLogin()
    expect(await screen.findByRole('heading', { name: 'Set up your second factor' })).toBeInTheDocument()
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'open it in the app' })).toHaveAttribute('href', expect.stringMatching(/^otpauth:\/\/totp\//))
    // The same link as a QR code, drawn in the page beside the key.
    expect(screen.getByRole('img', { name: 'QR code to scan with your authenticator app' }).querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
    const field = screen.getByLabelText('6-digit code from the app')
    await waitFor(() => expect(field).toHaveFocus())
    await userEvent.type(field, '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Turn on second factor' }))
    const heading = await screen.findByRole('heading', { name: 'Save your recovery codes' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(within(screen.getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem')).toHaveLength(2)
    expect(router.state.location.pathname).toBe('/login')
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them, continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/admin'))
  })

  it('sends a user without from to the dashboard', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/login': () => json(200, { user: user() }),
    })
    const { router } = renderApp('/login')
    await fillLogin()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/dashboard'))
  })
})

describe('signup form', () => {
  async function fillSignup() {
    await userEvent.type(await screen.findByLabelText('Name'), 'Ada Lovelace')
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'a long enough password')
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }))
  }

  it('shows "Creating account..." then the check-your-email step, with resend and log in', async () => {
    const signup = deferred<Response>()
    const message = 'Check your email to finish creating your account.'
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/signup': () => signup.promise,
      'POST /api/auth/verification/resend': () => json(202, { message: 'A new verification link is on its way.' }),
    })
    const { router } = renderApp('/signup')
    await fillSignup()
    expect(await screen.findByText('Creating account...')).toBeInTheDocument()
    signup.resolve(json(202, { message }))
    const heading = await screen.findByRole('heading', { name: 'Check your email' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(screen.getByText(message)).toBeInTheDocument()
    expect(screen.getByText('ada@example.com')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/signup')
    expect(calls.find((c) => c.key === 'POST /api/auth/signup')?.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'a long enough password',
    })
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification email' }))
    expect(await screen.findByText('A new verification link is on its way.')).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/auth/verification/resend')?.body).toEqual({ email: 'ada@example.com' })
    expect(within(screen.getByText(/already have an account\?/)).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
  })

  it("makes a try remembered in this browser the new account's to keep", async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/signup': () => json(202, { message: 'Check your email to finish creating your account.' }),
    })
    rememberTry('t1')
    renderApp('/signup')
    await fillSignup()
    await screen.findByRole('heading', { name: 'Check your email' })
    expect(rememberedTryOf('ADA@example.com')).toBe('t1')
  })

  it('shows the server error after a cross', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/signup': () => problem(400, 'This password is too common. Please choose one that is harder to guess.'),
    })
    renderApp('/signup')
    await fillSignup()
    expect(await screen.findByRole('alert')).toHaveTextContent('✕ This password is too common. Please choose one that is harder to guess.')
  })
})

describe('verify email page', () => {
  it('does not use the token until the button is pressed, then lands signed in on the dashboard with a welcome', async () => {
    let signedIn = false
    const { calls } = mockApi({
      'GET /api/auth/me': () => (signedIn ? json(200, { user: user({ name: 'Tess' }) }) : json(200, {})),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody({ name: 'Tess' })),
      'POST /api/auth/verification/confirm': () => {
        signedIn = true
        return json(200, { message: 'Your email is confirmed.', signedIn: true })
      },
    })
    const { router } = renderApp('/verify-email?token=tok123')
    const button = await screen.findByRole('button', { name: 'Confirm my email' })
    expect(screen.getByText(/signed in and taken to your dashboard/)).toBeInTheDocument()
    expect(calls.some((c) => c.key === 'POST /api/auth/verification/confirm')).toBe(false)
    await userEvent.click(button)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/dashboard'))
    expect(await screen.findByText('Your email is confirmed. Welcome to Whitecoat!')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Welcome, Tess' })).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/auth/verification/confirm')?.body).toEqual({ token: 'tok123' })
  })

  it('lands signed in even when the page\'s first check of the old sign-in is still unanswered when the confirmation replaces it', async () => {
    // The server answers that check only after the confirmation ended the
    // sign-in it carried; until then it hangs, unless it is cancelled.
    let meCalls = 0
    mockApi({
      'GET /api/auth/me': (req) => {
        meCalls++
        if (meCalls > 1) return json(200, { user: user({ name: 'Tess' }) })
        return new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
      },
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody({ name: 'Tess' })),
      'POST /api/auth/verification/confirm': () => json(200, { message: 'Your email is confirmed.', signedIn: true }),
    })
    const { router } = renderApp('/verify-email?token=tok123')
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my email' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/dashboard'))
    expect(await screen.findByRole('heading', { name: 'Welcome, Tess' })).toBeInTheDocument()
  })

  it('says a confirmation that signed nobody in is done, and offers only Log in', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/verification/confirm': () => json(200, { message: 'Your email is confirmed. Log in to continue.', signedIn: false }),
    })
    renderApp('/verify-email?token=tok123')
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my email' }))
    const main = within(screen.getByRole('main'))
    expect(await main.findByRole('heading', { name: 'Email confirmed' })).toBeInTheDocument()
    expect(main.getAllByText('Your email is confirmed. Log in to continue.').length).toBeGreaterThan(0)
    expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    expect(main.queryByRole('button', { name: 'Confirm my email' })).not.toBeInTheDocument()
    expect(main.queryByText(/Press the button/)).not.toBeInTheDocument()
  })

  it('takes a signed-in browser to its dashboard even when the button is pressed before the page knows who is signed in', async () => {
    const me = deferred<Response>()
    mockApi({
      'GET /api/auth/me': () => me.promise,
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/verification/confirm': () => json(200, { message: 'Your email is confirmed. Log in to continue.', signedIn: false }),
    })
    const { router } = renderApp('/verify-email?token=tok123')
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my email' }))
    // The page waits for the signed-in user before it goes on: the
    // dashboard's guard must not see the signed-out answer.
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify-email'))
    me.resolve(json(200, { user: { id: 'u1', name: 'Tess', email: 'tess@example.com', emailVerified: true, role: 'user' } }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(/dashboard$/))
  })

  it('says a used or expired link cannot be used, and offers log in and a new link', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/verification/confirm': () => problem(400, 'This link is invalid, has expired or was already used. Request a new one.'),
      'POST /api/auth/verification/resend': () => json(202, { message: 'A new link is on its way.' }),
    })
    renderApp('/verify-email?token=bad')
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my email' }))
    const main = within(screen.getByRole('main'))
    expect(await main.findByRole('heading', { name: 'This link can’t be used' })).toBeInTheDocument()
    expect(main.getByRole('alert')).toHaveTextContent('✕ This link is invalid, has expired or was already used. Request a new one.')
    expect(main.queryByRole('button', { name: 'Confirm my email' })).not.toBeInTheDocument()
    expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    await userEvent.type(main.getByLabelText('Email'), 'ada@example.com')
    await userEvent.click(main.getByRole('button', { name: 'Send a new link' }))
    expect(await main.findByText('A new link is on its way.')).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/auth/verification/resend')?.body).toEqual({ email: 'ada@example.com' })
  })
})

describe('password reset', () => {
  it('requests a link and shows the server message', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/password/forgot': () => json(202, { message: 'If that address has an account, we sent a reset link.' }),
    })
    renderApp('/forgot-password')
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('If that address has an account, we sent a reset link.')).toBeInTheDocument()
  })

  it('sets a new password with the token and goes to log in', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/password/reset': () => json(200, { message: 'Your password has been changed.' }),
    })
    const { router } = renderApp('/reset-password?token=t1')
    await userEvent.type(await screen.findByLabelText('New password'), 'new secret words')
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(calls.find((c) => c.key === 'POST /api/auth/password/reset')?.body).toEqual({ token: 't1', password: 'new secret words' })
  })

  it('shows a weak password error after a cross', async () => {
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'POST /api/auth/password/reset': () => problem(400, 'Password must be at least 10 characters.'),
    })
    renderApp('/reset-password?token=t1')
    await userEvent.type(await screen.findByLabelText('New password'), 'short')
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('✕ Password must be at least 10 characters.')
  })
})
