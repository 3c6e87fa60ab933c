import { useEffect, useState } from 'react'
import { openMedia } from '@/lib/media'
import type { PracticeSession } from '../api/get-practice-session'

/** The camera/microphone for the whole session, so permission is asked once. */
export function useMediaStream(mode: PracticeSession['mode']) {
  const [stream, setStream] = useState<MediaStream | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let opened: MediaStream | null = null
    let cancelled = false
    openMedia(mode).then(
      (s) => {
        if (cancelled) s.getTracks().forEach((t) => t.stop())
        else setStream((opened = s))
      },
      (err: Error) => !cancelled && setError(err.message),
    )
    return () => {
      cancelled = true
      opened?.getTracks().forEach((t) => t.stop())
    }
  }, [mode])
  return { stream, error }
}
