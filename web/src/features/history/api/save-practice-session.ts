import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function savePracticeSession({ sessionId, title }: { sessionId: string; title: string }) {
  const { saved } = await unwrap(api.POST('/api/practice/sessions/{id}/save', { params: { path: { id: sessionId } }, body: { title } }))
  return saved
}

export function useSavePracticeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: savePracticeSession,
    // A saved session joins the dashboard's recent sessions and the history.
    onSuccess: () => Promise.all([queryKeys.dashboard, queryKeys.history.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}
