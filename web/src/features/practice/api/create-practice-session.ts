import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type CreatePracticeSessionInput = RequestBody<'/api/practice/sessions', 'post'>

export async function createPracticeSession(body: CreatePracticeSessionInput) {
  const { session } = await unwrap(api.POST('/api/practice/sessions', { body }))
  return session
}

/** Starts a session; the server chooses the questions. The answer seeds the session's cache entry. */
export function useCreatePracticeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createPracticeSession,
    onSuccess: (session) => queryClient.setQueryData(queryKeys.practice.session(session.id), session),
  })
}
