import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

export function skipQuestion({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  return unwrap(api.POST('/api/practice/sessions/{id}/items/{itemId}/skip', { params: { path: { id: sessionId, itemId } } }))
}

export function useSkipQuestion() {
  return useMutation({ mutationFn: skipQuestion })
}
