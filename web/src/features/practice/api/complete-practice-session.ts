import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function completePracticeSession({ sessionId, totalSessionTime }: { sessionId: string; totalSessionTime: number }) {
  const { session } = await unwrap(
    api.POST('/api/practice/sessions/{id}/complete', { params: { path: { id: sessionId } }, body: { totalSessionTime } }),
  )
  return session
}

export function useCompletePracticeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: completePracticeSession,
    onSuccess: (session) => {
      queryClient.setQueryData(queryKeys.practice.session(session.id), session)
      // Stats change once the last answer is scored; the dashboard refetches on visit.
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard })
    },
  })
}
