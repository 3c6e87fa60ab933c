import { useEffect, useId, useState } from 'react'

/** How often the level is read: smooth enough to see, few enough renders. */
const SAMPLE_MS = 100

/** Words for the level, for screen readers (aria-valuetext): the bar alone says nothing to them. */
export function levelWords(level: number): string {
  if (level < 5) return 'Silent'
  if (level < 30) return 'Quiet'
  return 'Good'
}

/** The meter's words while the microphone is still opening. */
const WAITING_FOR_MICROPHONE = 'Waiting for the microphone'

/** Whether Web Audio can read the stream's microphone, or will once it opens (null: still opening). */
function measurable(stream: MediaStream | null): boolean {
  return typeof AudioContext !== 'undefined' && (stream === null || stream.getAudioTracks().length > 0)
}

/**
 * The loudness (0-100) of the stream's microphone, read with a Web Audio
 * AnalyserNode every SAMPLE_MS; 0 until the first reading.
 */
function useMicrophoneLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0)
  useEffect(() => {
    if (!stream || !measurable(stream)) return
    const context = new AudioContext()
    // Safari starts a context suspended until a user gesture; the Start click resumes it at the latest.
    void context.resume()
    const analyser = context.createAnalyser()
    analyser.fftSize = 1024
    const source = context.createMediaStreamSource(stream)
    source.connect(analyser)
    const samples = new Uint8Array(analyser.fftSize)
    const timer = setInterval(() => {
      analyser.getByteTimeDomainData(samples)
      let sum = 0
      for (const s of samples) sum += ((s - 128) / 128) ** 2
      // Speech sits around 0.05-0.2 RMS: scaled so a normal voice fills most of the bar.
      setLevel(Math.min(100, Math.round(Math.sqrt(sum / samples.length) * 400)))
    }, SAMPLE_MS)
    return () => {
      clearInterval(timer)
      source.disconnect()
      void context.close()
      setLevel(0)
    }
  }, [stream])
  return level
}

/**
 * A microphone level meter, so the student sees the microphone hears them
 * before and while recording. role=meter with words as its value; not a live
 * region, so a screen reader hears it when it reaches it, not ten times a second.
 */
export function MicLevel({ stream }: { stream: MediaStream | null }) {
  const level = useMicrophoneLevel(stream)
  const labelId = useId()
  // Drawn from the question's first render, before the microphone opens
  // and before its first reading a tenth of a second later: the buttons
  // under it must not move as the question appears or the microphone
  // opens, or a click aimed at them lands on the meter.
  if (!measurable(stream)) return null
  return (
    <div className="grid gap-1">
      <span id={labelId} className="text-sm font-medium">
        Microphone level
      </span>
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={level}
        aria-valuetext={stream ? levelWords(level) : WAITING_FOR_MICROPHONE}
        className="h-3 w-full max-w-sm overflow-hidden rounded-full border border-border bg-muted"
      >
        <div className="h-full bg-primary transition-[width] duration-100 motion-reduce:transition-none" style={{ width: `${level}%` }} />
      </div>
    </div>
  )
}
