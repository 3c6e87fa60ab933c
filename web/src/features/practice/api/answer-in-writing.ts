import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

export function answerInWriting({ sessionId, itemId, text }: { sessionId: string; itemId: string; text: string }) {
  return unwrap(api.POST('/api/practice/sessions/{id}/items/{itemId}/typed', { params: { path: { id: sessionId, itemId } }, body: { text } }))
}

/** Submits a typed answer; the server scores it like a transcript. */
export function useAnswerInWriting() {
  return useMutation({ mutationFn: answerInWriting })
}
