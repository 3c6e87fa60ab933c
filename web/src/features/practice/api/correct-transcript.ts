import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function correctTranscript({ sessionId, itemId, transcript }: { sessionId: string; itemId: string; transcript: string }) {
  const body = await unwrap(
    api.PUT('/api/practice/sessions/{id}/items/{itemId}/transcript', { params: { path: { id: sessionId, itemId } }, body: { transcript } }),
  )
  return body.session
}

/**
 * Scores an answer again on the student's corrected transcript. The
 * session comes back with the new scores; its saved copy, the dashboard's
 * averages and the progress views change with it, so they are fetched again.
 */
export function useCorrectTranscript() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: correctTranscript,
    onSuccess: (session, { sessionId }) => {
      queryClient.setQueryData(queryKeys.practice.session(sessionId), session)
      for (const queryKey of [queryKeys.practice.saved.all, queryKeys.dashboard, queryKeys.progress.all, queryKeys.history.all]) {
        void queryClient.invalidateQueries({ queryKey })
      }
    },
  })
}
