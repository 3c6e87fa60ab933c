import { QueryClientProvider } from '@tanstack/react-query'
import { renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { queryKeys } from '@/lib/query-keys'
import { json, mockApi } from '@/test/api-mock'
import { testQueryClient } from '@/test/render'
import { useCorrectTranscript } from './correct-transcript'

describe('correcting a transcript', () => {
  it('has every view of the changed scores fetched again: saved sessions, dashboard, progress and history', async () => {
    mockApi({ 'PUT /api/practice/sessions/s1/items/i1/transcript': () => json(200, { session: { id: 's1' } }) })
    const queryClient = testQueryClient()
    const views = [queryKeys.practice.saved.detail('x1'), queryKeys.dashboard, queryKeys.progress.of({}), queryKeys.history.list({ page: 2 })]
    for (const key of views) queryClient.setQueryData(key, { cached: true })
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    const { result } = renderHook(() => useCorrectTranscript(), { wrapper })
    result.current.mutate({ sessionId: 's1', itemId: 'i1', transcript: 'What I said.' })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    for (const key of views) expect(queryClient.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true)
  })
})
