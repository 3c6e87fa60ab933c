import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export function retryAnswer({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  return unwrap(api.POST('/api/practice/sessions/{id}/items/{itemId}/retry', { params: { path: { id: sessionId, itemId } } }))
}

/** Processes a failed answer again; the session is refetched so polling resumes. */
export function useRetryAnswer() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: retryAnswer,
    onSuccess: (_, { sessionId }) => queryClient.invalidateQueries({ queryKey: queryKeys.practice.session(sessionId) }),
  })
}
