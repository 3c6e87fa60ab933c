import type { ResponseBody } from '@/lib/api-types'
import { recordingType } from '@/lib/media'
import { putBlob, type UploadOptions } from '@/lib/upload'

export type UploadAnswerResponse = ResponseBody<'/api/practice/sessions/{id}/items/{itemId}/audio', 'put', 202>

/**
 * Uploads one recorded answer (the raw recording, typed by the recorder's
 * MIME type) with progress and automatic retries. There is no mutation hook:
 * several answers may upload at once, each with its own progress, which the
 * session keeps per question (see hooks/use-answer-uploads).
 */
export function uploadAnswer(sessionId: string, itemId: string, audio: Blob, opts?: UploadOptions) {
  const path = `/api/practice/sessions/${encodeURIComponent(sessionId)}/items/${encodeURIComponent(itemId)}/audio`
  return putBlob<UploadAnswerResponse>(path, audio, recordingType(audio), opts)
}
