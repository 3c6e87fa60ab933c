import { useEffect, useRef, useState } from 'react'
import { countdownAnnouncement } from '../utils/countdown'

interface Options {
  /** The clock runs while this is true and restarts at 0 each time it becomes true. */
  running: boolean
  /** Seconds until the end; 0 for no limit (the clock only counts up). */
  limit: number
  /** Called once when the limit is reached. */
  onEnd?: () => void
  /** Speaks the milestones (1 minute, 30 seconds left); the caller says when time is up. */
  announce?: (text: string) => void
}

/**
 * One phase's clock (reading, recording, typing): whole seconds elapsed and
 * left, the end of the limit, and the milestones spoken, never every
 * second. Measured from performance.now, so a slow render never loses time.
 */
export function useCountdown({ running, limit, onEnd, announce }: Options) {
  const [elapsed, setElapsed] = useState(0)
  const startedAt = useRef(0)
  const ended = useRef(onEnd)
  useEffect(() => {
    ended.current = onEnd
  }, [onEnd])

  useEffect(() => {
    if (!running) return
    startedAt.current = performance.now()
    setElapsed(0)
    const timer = setInterval(() => {
      const secs = Math.floor((performance.now() - startedAt.current) / 1000)
      setElapsed(secs)
      if (limit > 0 && secs >= limit) {
        clearInterval(timer)
        ended.current?.()
      }
    }, 200)
    return () => clearInterval(timer)
  }, [running, limit])

  const remaining = limit > 0 ? Math.max(0, limit - elapsed) : null
  useEffect(() => {
    if (!running || remaining === null) return
    const text = countdownAnnouncement(remaining, limit)
    if (text) announce?.(text)
  }, [running, remaining, limit, announce])
  return { elapsed, remaining }
}
