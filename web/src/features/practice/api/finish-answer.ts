import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

export type BrowserTranscript = NonNullable<RequestBody<'/api/practice/sessions/{id}/items/{itemId}/audio/finish', 'post'>['browserTranscript']>

/**
 * Queues an answer whose pieces were all sent, `size` bytes in all, like a
 * whole upload, with what the student's browser heard of it when they
 * chose to be heard by it. A 409 means the server does not have exactly
 * those bytes.
 */
export function finishAnswer(
  { sessionId, itemId, size, browserTranscript }: { sessionId: string; itemId: string; size: number; browserTranscript?: BrowserTranscript },
  signal?: AbortSignal,
) {
  return unwrap(
    api.POST('/api/practice/sessions/{id}/items/{itemId}/audio/finish', {
      params: { path: { id: sessionId, itemId } },
      body: browserTranscript ? { size, browserTranscript } : { size },
      signal,
    }),
  )
}
