import { QueryClientProvider } from '@tanstack/react-query'
import { renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { bindRememberedTry, rememberTry } from '@/lib/pending-try'
import { json, mockApi, problem } from '@/test/api-mock'
import { testQueryClient } from '@/test/render'
import { useKeepRememberedTry } from './keep-try'

const KEEP = 'POST /api/tryout/tries/t1/keep'
const tess = { email: 'tess@example.com', emailVerified: true }

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={testQueryClient()}>{children}</QueryClientProvider>
}

afterEach(() => window.localStorage.clear())

describe('keeping a remembered try', () => {
  it('forgets the try when the history is locked (403): the dashboard does not ask again on every visit', async () => {
    const { calls } = mockApi({ [KEEP]: () => problem(403, 'Locked.') })
    rememberTry('t1')
    bindRememberedTry('Tess@example.com')
    renderHook(() => useKeepRememberedTry(tess), { wrapper })
    await waitFor(() => expect(calls.filter((c) => c.key === KEEP)).toHaveLength(1))
    await waitFor(() => expect(window.localStorage.length).toBe(0))
  })

  it('keeps the try only in the account signed up for it in this browser', async () => {
    const { calls } = mockApi({ [KEEP]: () => json(204, null) })
    rememberTry('t1')
    bindRememberedTry('tess@example.com')
    const other = renderHook(() => useKeepRememberedTry({ email: 'someone@example.com', emailVerified: true }), { wrapper })
    other.unmount()
    expect(calls.filter((c) => c.key === KEEP)).toHaveLength(0)
    expect(window.localStorage.length).toBe(0)
  })

  it('is kept by no one when no account was signed up for it here', async () => {
    const { calls } = mockApi({ [KEEP]: () => json(204, null) })
    rememberTry('t1')
    renderHook(() => useKeepRememberedTry(tess), { wrapper })
    expect(calls.filter((c) => c.key === KEEP)).toHaveLength(0)
    expect(window.localStorage.length).toBe(0)
  })

  it('is kept by the account signed up for it', async () => {
    const { calls } = mockApi({ [KEEP]: () => json(204, null) })
    rememberTry('t1')
    bindRememberedTry('tess@example.com')
    renderHook(() => useKeepRememberedTry(tess), { wrapper })
    await waitFor(() => expect(calls.filter((c) => c.key === KEEP)).toHaveLength(1))
    await waitFor(() => expect(window.localStorage.length).toBe(0))
  })
})
