import { api, unwrap } from '@/lib/api-client'
import { recordingType } from '@/lib/media'

export interface AnswerPiece {
  sessionId: string
  itemId: string
  /** Where in the recording `piece` starts, in bytes; 0 starts the recording afresh. */
  offset: number
  piece: Blob
  /** What the student's browser has heard of the answer so far, when it hears them. */
  heardSoFar?: string
}

/**
 * Sends the next bytes of an answer while it is being recorded (see
 * answer-stream). Resolves with the bytes of the recording the server has.
 */
export function appendAnswerPiece({ sessionId, itemId, offset, piece, heardSoFar }: AnswerPiece, signal?: AbortSignal) {
  // A header carries Latin-1 alone: the words go percent-encoded.
  const heard = heardSoFar ? { 'Heard-So-Far': encodeURIComponent(heardSoFar) } : {}
  return unwrap(
    api.PATCH('/api/practice/sessions/{id}/items/{itemId}/audio', {
      params: { path: { id: sessionId, itemId }, query: { offset }, header: { 'Content-Type': recordingType(piece), ...heard } },
      // The generated types call a binary body a string; fetch sends the Blob as it is.
      body: piece as unknown as string,
      bodySerializer: (body) => body,
      signal,
    }),
  )
}
