import { limits } from '@/api/limits'
import { ApiError } from '@/lib/api-client'
import { withRetries, type UploadOptions } from '@/lib/upload'
import { appendAnswerPiece } from '../api/append-answer-piece'
import { finishAnswer, type Observed } from '../api/finish-answer'
import { uploadAnswer } from '../api/upload-answer'

/** The server's limit on one piece. Pieces that queued up behind a slow request go out together, up to this. */
export const MAX_PIECE_BYTES = limits.appendAnswerPiece.body.maxLength

export interface AnswerStreamOptions extends Pick<UploadOptions, 'signal' | 'sleep' | 'maxAttempts'> {
  /** The usage guard paused the account (403), with the server's text. Nothing more is sent. */
  onRefused: (message: string) => void
  /** What the student's browser has heard so far, sent with each piece, when it hears them. */
  heardSoFar?: () => string
}

/** How a saved answer's upload is shown: the same callbacks as a whole upload's. */
export type FinishListeners = Pick<UploadOptions, 'onProgress' | 'onRetry'>

export interface AnswerStream {
  /** Queues the recorder's next piece; pieces go out in order, one request at a time. */
  push: (piece: Blob) => void
  /**
   * Once the answer is saved: waits for the queued pieces, then has the
   * server queue the answer. When streaming broke on the way, or the server
   * does not have exactly `audio`'s bytes, uploads `audio` whole instead.
   * Rejects like uploadAnswer: on a 403, an abort, or a failed whole upload.
   * What the browser observed (heard, measured) travels with the finish
   * call; a whole upload carries none and is transcribed by the server alone.
   */
  finish: (audio: Blob, listeners?: FinishListeners, observed?: Observed) => Promise<void>
}

/** Failures that uploading the whole recording would not get past. */
function isFinal(err: unknown): boolean {
  return (err instanceof ApiError && err.status === 403) || (err instanceof DOMException && err.name === 'AbortError')
}

/**
 * streamAnswer uploads one recording of a question while it is being made,
 * so the server can recognise the speech as it arrives and have feedback
 * ready soon after the student stops. Each recording starts again at offset
 * 0, which replaces whatever the server had for the question. A failure a
 * retry can fix is retried with backoff (a piece sent again whose answer was
 * lost is accepted by the server); any other stops the streaming for good,
 * and finish() then falls back to the whole upload.
 */
export function streamAnswer(sessionId: string, itemId: string, opts: AnswerStreamOptions): AnswerStream {
  const queue: Blob[] = []
  let recorded = 0
  let sent = 0
  /** Why streaming stopped, once it has. */
  let broken: unknown = null
  /** Settles once every piece queued so far was sent or given up on; never rejects. */
  let sending = Promise.resolve()
  let listeners: FinishListeners = {}
  const retries = { ...opts, onRetry: (err: ApiError, attempt: number) => listeners.onRetry?.(err, attempt) }

  function takePieces(): Blob {
    let count = 1
    let size = queue[0]!.size
    while (count < queue.length && size + queue[count]!.size <= MAX_PIECE_BYTES) size += queue[count++]!.size
    const pieces = queue.splice(0, count)
    return new Blob(pieces, { type: pieces[0]!.type })
  }

  async function sendQueued() {
    if (broken || queue.length === 0) return // an earlier send took this piece along
    const piece = takePieces()
    try {
      const heardSoFar = opts.heardSoFar?.()
      await withRetries(() => appendAnswerPiece({ sessionId, itemId, offset: sent, piece, heardSoFar }, opts.signal), retries)
      sent += piece.size
      listeners.onProgress?.(sent / recorded)
    } catch (err) {
      broken = err
      queue.length = 0
      if (err instanceof ApiError && err.status === 403) opts.onRefused(err.message)
    }
  }

  return {
    push(piece) {
      if (broken) return
      queue.push(piece)
      recorded += piece.size
      sending = sending.then(sendQueued)
    },
    async finish(audio, finishListeners = {}, observed) {
      listeners = finishListeners
      listeners.onProgress?.(recorded > 0 ? sent / recorded : 0)
      await sending
      if (!broken) {
        try {
          await withRetries(() => finishAnswer({ sessionId, itemId, size: audio.size, observed }, opts.signal), retries)
          return
        } catch (err) {
          broken = err
        }
      }
      if (isFinal(broken)) throw broken
      await uploadAnswer(sessionId, itemId, audio, { ...opts, ...listeners })
    },
  }
}
