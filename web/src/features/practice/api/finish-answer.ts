import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

type FinishBody = RequestBody<'/api/practice/sessions/{id}/items/{itemId}/audio/finish', 'post'>

export type BrowserTranscript = NonNullable<FinishBody['browserTranscript']>

/**
 * What the student's browser observed of the answer beside recording it:
 * what it heard, when they chose to be heard by it, and what it measured
 * of a video answer on the device (issue 42).
 */
export type Observed = Pick<FinishBody, 'browserTranscript' | 'videoDelivery'>

/**
 * Queues an answer whose pieces were all sent, `size` bytes in all, like a
 * whole upload, with what the student's browser observed of it. A 409
 * means the server does not have exactly those bytes.
 */
export function finishAnswer({ sessionId, itemId, size, observed = {} }: { sessionId: string; itemId: string; size: number; observed?: Observed }, signal?: AbortSignal) {
  return unwrap(
    api.POST('/api/practice/sessions/{id}/items/{itemId}/audio/finish', {
      params: { path: { id: sessionId, itemId } },
      body: { size, ...observed },
      signal,
    }),
  )
}
