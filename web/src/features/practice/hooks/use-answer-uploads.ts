import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, errorMessage } from '@/lib/api-client'
import { uploadAnswer } from '../api/upload-answer'
import type { Observed } from '../api/finish-answer'
import { streamAnswer, type AnswerStream } from '../utils/answer-stream'

export interface AnswerUpload {
  status: 'uploading' | 'retrying' | 'done' | 'failed'
  /** 0-100 of the current attempt. */
  percent: number
  error: string
  /** Kept so a failed upload can be sent again while the session is open. */
  audio: Blob
}

/**
 * Uploads each answer while it is recorded (startStream, see answer-stream)
 * and, once saved, finishes it or uploads it whole (start), several at once
 * if the student moves on quickly, with per-answer progress. A 403 means the
 * usage guard paused the account: `onRefused` gets the server's text and the
 * session ends. `settled()` resolves once no upload is in flight, so the
 * session is completed only after every answer reached the server (completing
 * first would mark a still-uploading answer skipped).
 */
export function useAnswerUploads(
  sessionId: string,
  { onRefused, announce }: { onRefused: (message: string) => void; announce: (text: string) => void },
) {
  const [uploads, setUploads] = useState<Record<string, AnswerUpload>>({})
  const inFlight = useRef(new Map<string, Promise<void>>())
  /** The recording in progress or just saved, per question. */
  const streams = useRef(new Map<string, AnswerStream>())
  // Leaving the session stops its uploads. Made in the effect so that
  // StrictMode's mount-unmount-mount leaves a live controller.
  const abort = useRef<AbortController | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    abort.current = controller
    return () => controller.abort()
  }, [])

  const update = useCallback((itemId: string, patch: Partial<AnswerUpload>) => {
    setUploads((all) => {
      const current = all[itemId]
      return current ? { ...all, [itemId]: { ...current, ...patch } } : all
    })
  }, [])

  /** A recording of the question starts: returns where its pieces go (with what the browser heard so far, when it hears the student). */
  const startStream = useCallback(
    (itemId: string, heardSoFar?: () => string) => {
      const stream = streamAnswer(sessionId, itemId, { signal: abort.current?.signal, onRefused, heardSoFar })
      streams.current.set(itemId, stream)
      return stream.push
    },
    [sessionId, onRefused],
  )

  /** The answer was saved: finish its stream with what the browser observed, or upload it whole (a retry, or no stream). */
  const start = useCallback(
    (itemId: string, audio: Blob, observed?: Observed) => {
      setUploads((all) => ({ ...all, [itemId]: { status: 'uploading', percent: 0, error: '', audio } }))
      announce('Uploading answer')
      const stream = streams.current.get(itemId)
      streams.current.delete(itemId)
      const listeners = {
        onProgress: (f: number) => update(itemId, { percent: Math.round(f * 100) }),
        onRetry: () => update(itemId, { status: 'retrying' }),
      }
      const job = (stream ? stream.finish(audio, listeners, observed) : uploadAnswer(sessionId, itemId, audio, { signal: abort.current?.signal, ...listeners }))
        .then(() => {
          update(itemId, { status: 'done', percent: 100 })
          announce('Answer uploaded')
        })
        .catch((err: unknown) => {
          if (err instanceof DOMException && err.name === 'AbortError') return
          if (err instanceof ApiError && err.status === 403) {
            onRefused(err.message)
            return
          }
          update(itemId, { status: 'failed', error: errorMessage(err) })
          announce('Upload failed')
        })
        .finally(() => inFlight.current.delete(itemId))
      inFlight.current.set(itemId, job)
    },
    [sessionId, update, announce, onRefused],
  )

  const settled = useCallback(async () => {
    while (inFlight.current.size > 0) await Promise.all(inFlight.current.values())
  }, [])

  const busy = Object.values(uploads).some((u) => u.status === 'uploading' || u.status === 'retrying')
  const failed = Object.values(uploads).filter((u) => u.status === 'failed').length
  return { uploads, startStream, start, settled, busy, failed }
}
