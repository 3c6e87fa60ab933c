import { useEffect, useState } from 'react'
import { openMedia } from '@/lib/media'
import type { PracticeSession } from '../api/get-practice-session'

/**
 * The camera/microphone for the whole session, so permission is asked once;
 * released once `enabled` turns false (the session was stopped).
 */
export function useMediaStream(mode: PracticeSession['mode'], enabled = true) {
  const [stream, setStream] = useState<MediaStream | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!enabled) return
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
  }, [mode, enabled])
  return { stream: enabled ? stream : null, error }
}
