import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { dashboardBody, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import { CONFIRM_WITH_GOOGLE } from './account-data'

const kept = 'The account and everything in it have been deleted. Your payment records are kept.'

describe('your data', () => {
  it('offers both downloads and deletes the account only with the right password', async () => {
    const passwords: string[] = []
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
      'POST /api/account/delete': async (req) => {
        const { password } = (await req.json()) as { password: string }
        passwords.push(password)
        return password === 'right one' ? json(200, { message: kept }) : problem(400, 'That password is not right.')
      },
    })
    renderApp('/dental/dashboard')
    expect(await screen.findByRole('link', { name: 'Download my data (JSON)' })).toHaveAttribute('href', '/api/account/export')
    expect(screen.getByRole('link', { name: 'Download my sessions (CSV)' })).toHaveAttribute('href', '/api/account/export.csv')

    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' })
    const password = within(dialog).getByLabelText('Password')
    expect(password).toHaveFocus()
    await userEvent.type(password, 'wrong')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That password is not right.')

    await userEvent.clear(password)
    await userEvent.type(password, 'right one{Enter}')
    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument()
    expect(screen.getByText(kept)).toBeInTheDocument()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(passwords).toEqual(['wrong', 'right one'])
  })
})

// The Firebase SDK opens Google's popup, which no test can reach; the
// token it would give is what the page sends on.
const popup = vi.hoisted(() => ({ firebaseIdToken: vi.fn<(config: unknown) => Promise<string>>() }))
vi.mock('@/features/auth/api/firebase-sdk', () => popup)

describe('deleting an account made with Google', () => {
  it('confirms with a fresh Google sign-in instead of a password', async () => {
    popup.firebaseIdToken.mockResolvedValue('fresh.id.token')
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
      'GET /api/auth/firebase/config': () =>
        json(200, { enabled: true, projectId: 'whitecoat-prod', apiKey: 'AIza-key', authDomain: 'whitecoat-prod.firebaseapp.com' }),
      'POST /api/account/delete': () => json(200, { message: kept }),
    })
    renderApp('/dental/dashboard')
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' })
    const google = await within(dialog).findByRole('button', { name: CONFIRM_WITH_GOOGLE })
    expect(google).toHaveAccessibleDescription(/never set a password/)
    await userEvent.click(google)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(popup.firebaseIdToken).toHaveBeenCalledTimes(1)
    expect(calls.find((c) => c.key === 'POST /api/account/delete')?.body).toEqual({ idToken: 'fresh.id.token' })
  })
})
