import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'

export type Try = ResponseBody<'/api/tryout/tries/{token}', 'get'>

/** Sends a visitor's recorded answer to the profession's default question. */
export async function recordTry({ slug, audio }: { slug: string; audio: Blob }): Promise<Try> {
  // Loaded with the recorder that made the audio (try-question.tsx), so at once.
  const { recordingType } = await import('@/lib/media')
  return unwrap(
    api.POST('/api/tryout/recordings/{slug}', {
      params: { path: { slug } },
      // The raw recording, typed by the recorder's MIME type (audio/mp4 on Safari).
      body: audio as unknown as string,
      bodySerializer: (body: unknown) => body as Blob,
      headers: { 'Content-Type': recordingType(audio) },
    }),
  )
}

export function useRecordTry() {
  return useMutation({ mutationFn: recordTry })
}
