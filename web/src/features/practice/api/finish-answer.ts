import { api, unwrap } from '@/lib/api-client'

/**
 * Queues an answer whose pieces were all sent, `size` bytes in all, like a
 * whole upload. A 409 means the server does not have exactly those bytes.
 */
export function finishAnswer({ sessionId, itemId, size }: { sessionId: string; itemId: string; size: number }, signal?: AbortSignal) {
  return unwrap(api.POST('/api/practice/sessions/{id}/items/{itemId}/audio/finish', { params: { path: { id: sessionId, itemId } }, body: { size }, signal }))
}
