import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'
import { FIREBASE_POPUP_FAILED } from '../api/firebase-sign-in'
import { FIREBASE_BUTTON } from './firebase-sign-in'

// The Firebase SDK opens Google's popup, which no test can reach; the
// token it would give is what the page sends on.
const popup = vi.hoisted(() => ({ firebaseIdToken: vi.fn<(config: unknown) => Promise<string>>() }))
vi.mock('../api/firebase-sdk', () => popup)

const enabled = { enabled: true, projectId: 'whitecoat-prod', apiKey: 'AIza-key', authDomain: 'whitecoat-prod.firebaseapp.com' }

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  popup.firebaseIdToken.mockReset()
})

describe('Firebase sign-in', () => {
  it('is not offered when the server has no Firebase project', async () => {
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/auth/firebase/config': () => json(200, { enabled: false, projectId: '', apiKey: '', authDomain: '' }),
    })
    renderApp('/login')
    await screen.findByLabelText('Email')
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/auth/firebase/config')).toBe(true))
    expect(screen.queryByRole('button', { name: FIREBASE_BUTTON })).not.toBeInTheDocument()
  })

  it('exchanges the popup’s token for our session and goes back to from', async () => {
    popup.firebaseIdToken.mockResolvedValue('header.payload.signature')
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/auth/firebase/config': () => json(200, enabled),
      'POST /api/auth/firebase': () => json(200, { user: user() }),
    })
    const { router } = renderApp('/dental/setup')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    await userEvent.click(await screen.findByRole('button', { name: FIREBASE_BUTTON }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/setup'))
    expect(popup.firebaseIdToken).toHaveBeenCalledWith(enabled)
    expect(calls.find((c) => c.key === 'POST /api/auth/firebase')?.body).toEqual({ idToken: 'header.payload.signature' })
  })

  it('says so when the popup is closed, and sends nothing', async () => {
    popup.firebaseIdToken.mockRejectedValue(new Error('auth/popup-closed-by-user'))
    const { calls } = mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/auth/firebase/config': () => json(200, enabled),
    })
    renderApp('/login')
    await userEvent.click(await screen.findByRole('button', { name: FIREBASE_BUTTON }))
    expect(await screen.findByRole('alert')).toHaveTextContent(FIREBASE_POPUP_FAILED)
    expect(calls.some((c) => c.key === 'POST /api/auth/firebase')).toBe(false)
  })

  it('shows the server’s refusal and leads an admin to the second factor', async () => {
    popup.firebaseIdToken.mockResolvedValue('t')
    let answer = () => problem(403, 'Verify your email address with Firebase first, then sign in again.', 'Forbidden')
    mockApi({
      'GET /api/auth/me': () => json(200, {}),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/auth/firebase/config': () => json(200, enabled),
      'POST /api/auth/firebase': () => answer(),
    })
    renderApp('/login')
    await userEvent.click(await screen.findByRole('button', { name: FIREBASE_BUTTON }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Verify your email address with Firebase first')
    answer = () => json(200, { user: user({ role: 'admin' }), secondFactor: 'code' })
    await userEvent.click(screen.getByRole('button', { name: FIREBASE_BUTTON }))
    expect(await screen.findByLabelText(/code/i)).toHaveFocus()
  })
})
