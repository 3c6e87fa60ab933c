import { Circle, Square } from 'lucide-react'
import { useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { startRecording, type RecordedAnswer } from '@/lib/media'
import type { PracticeItem, PracticeSession } from '../api/get-practice-session'
import { countdownAnnouncement, formatClock } from '../utils/countdown'
import { MicLevel } from './mic-level'
import type { AnswerUpload } from '../hooks/use-answer-uploads'

/** Spec §8, verbatim even when tests shorten the limit. */
export const LIMIT_REACHED = '3-minute limit reached. Your response was saved.'

type RecorderState = 'idle' | 'recording' | 'saved'

interface Props {
  item: PracticeItem
  position: number
  total: number
  mode: PracticeSession['mode']
  limitSeconds: number
  stream: MediaStream | null
  mediaError: string | null
  upload: AnswerUpload | undefined
  /** True while the session is skipping, completing or otherwise busy. */
  busy: boolean
  announce: (text: string) => void
  /** A recording of the question starts: returns where its pieces go as they are recorded. */
  onRecordingStarted: (itemId: string) => (piece: Blob) => void
  /** Stable across renders: the recording clock restarts whenever it changes. */
  onSaved: (itemId: string, answer: RecordedAnswer) => void
  onRetryUpload: () => void
  onSkip: () => void
  onNext: () => void
}

function LivePreview({ stream }: { stream: MediaStream }) {
  const ref = useCallback((el: HTMLVideoElement | null) => {
    if (el) el.srcObject = stream
  }, [stream])
  return <video ref={ref} autoPlay muted playsInline aria-label="Camera preview" className="aspect-video w-full rounded-lg bg-slate-900 object-cover" />
}

/**
 * Chromium reports a MediaRecorder blob's duration as Infinity until it is
 * seeked, so its player shows 0:00 with no length: once the metadata loads,
 * seek past the end (which makes it find the length), then back to the start.
 */
export function revealDuration(e: SyntheticEvent<HTMLMediaElement>) {
  const media = e.currentTarget
  if (Number.isFinite(media.duration)) return
  media.addEventListener('timeupdate', () => (media.currentTime = 0), { once: true })
  media.currentTime = Number.MAX_SAFE_INTEGER
}

/** The saved answer from memory, with its length (measured while recording, so known at once). */
function Replay({ url, mode, seconds }: { url: string; mode: PracticeSession['mode']; seconds: number }) {
  const player =
    mode === 'video' ? (
      <video src={url} controls playsInline onLoadedMetadata={revealDuration} aria-label="Replay your answer" className="aspect-video w-full rounded-lg bg-slate-900" />
    ) : (
      <audio src={url} controls onLoadedMetadata={revealDuration} aria-label="Replay your answer" className="w-full" />
    )
  return (
    <div className="grid gap-1">
      {player}
      <p className="text-sm text-muted-foreground">
        Length <span className="tabular-nums">{formatClock(seconds)}</span>
      </p>
    </div>
  )
}

function UploadStatus({ upload, onRetry }: { upload: AnswerUpload; onRetry: () => void }) {
  if (upload.status === 'failed') {
    return (
      <div className="grid justify-items-start gap-2">
        <p role="alert" className="text-sm font-medium text-destructive">
          Upload failed: {upload.error}
        </p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry upload
        </Button>
      </div>
    )
  }
  const label = upload.status === 'done' ? 'Uploaded' : upload.status === 'retrying' ? `Connection lost, retrying… ${upload.percent}%` : `Uploading ${upload.percent}%`
  return (
    <div className="grid gap-1">
      <p className="text-sm text-muted-foreground">{label}</p>
      <Progress value={upload.percent} aria-label="Upload progress" />
    </div>
  )
}

/**
 * One question: its tip, recording (idle -> recording -> saved) with a
 * countdown that stops the recording at the limit, replay of the saved
 * answer from memory, and the way on (skip, next, complete). Keyed by the
 * question, so each question starts idle.
 */
export function QuestionRecorder(props: Props) {
  const { item, position, total, mode, limitSeconds, stream, mediaError, upload, busy, announce, onSaved } = props
  const [state, setState] = useState<RecorderState>('idle')
  const [elapsed, setElapsed] = useState(0)
  const [limitReached, setLimitReached] = useState(false)
  const [replayUrl, setReplayUrl] = useState<string | null>(null)
  const [lengthSeconds, setLengthSeconds] = useState(0)
  const recording = useRef<ReturnType<typeof startRecording> | null>(null)
  const startedAt = useRef(0)
  const isLast = position === total

  const stop = useCallback(
    async (byLimit: boolean) => {
      const rec = recording.current
      if (!rec) return // the limit and a click can arrive together
      recording.current = null
      setLengthSeconds(Math.min(limitSeconds, Math.round((performance.now() - startedAt.current) / 1000)))
      const answer = await rec.stop()
      setReplayUrl(URL.createObjectURL(answer.replay))
      setLimitReached(byLimit)
      setState('saved')
      announce(byLimit ? LIMIT_REACHED : 'Answer saved')
      onSaved(item.id, answer)
    },
    [announce, onSaved, item.id, limitSeconds],
  )

  function start() {
    if (!stream) return
    recording.current = startRecording(stream, mode, props.onRecordingStarted(item.id))
    startedAt.current = performance.now()
    setElapsed(0)
    setState('recording')
    announce('Recording started')
  }

  // The clock: elapsed whole seconds, and the automatic stop at the limit.
  useEffect(() => {
    if (state !== 'recording') return
    const timer = setInterval(() => {
      const secs = Math.floor((performance.now() - startedAt.current) / 1000)
      setElapsed(secs)
      if (secs >= limitSeconds) void stop(true)
    }, 200)
    return () => clearInterval(timer)
  }, [state, limitSeconds, stop])

  const remaining = Math.max(0, limitSeconds - elapsed)
  useEffect(() => {
    if (state !== 'recording') return
    const text = countdownAnnouncement(remaining, limitSeconds)
    if (text) announce(text)
  }, [state, remaining, limitSeconds, announce])

  // Leaving the question mid-recording stops the recorders; replay memory is freed.
  useEffect(() => () => void recording.current?.stop(), [])
  useEffect(() => () => {
    if (replayUrl) URL.revokeObjectURL(replayUrl)
  }, [replayUrl])

  return (
    <section aria-labelledby="question-heading" className="grid gap-5">
      <div className="grid gap-2">
        <p className="text-sm font-medium text-muted-foreground">
          Question {position} of {total}
        </p>
        <h1 id="question-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {item.question}
        </h1>
        {item.tip ? (
          <p className="rounded-md bg-muted p-3 text-sm">
            <span className="font-semibold">Tip: </span>
            {item.tip}
          </p>
        ) : null}
      </div>

      {mediaError ? (
        <p role="alert" className="font-medium text-red-700">
          {mediaError}
        </p>
      ) : null}

      {mode === 'video' && stream && state !== 'saved' ? <LivePreview stream={stream} /> : null}
      {mode === 'audio' && state !== 'saved' ? <MicLevel stream={stream} /> : null}

      {state === 'recording' ? (
        <p className="flex items-center gap-2 text-lg font-semibold">
          <Circle aria-hidden="true" className="size-3 animate-pulse fill-red-600 text-red-600" />
          Recording · Time left <span role="timer" className="tabular-nums">{formatClock(remaining)}</span>
        </p>
      ) : null}

      {state === 'saved' ? (
        <div className="grid gap-3">
          {limitReached ? <p className="font-medium">{LIMIT_REACHED}</p> : <p className="font-medium">Your answer was saved.</p>}
          {replayUrl ? <Replay url={replayUrl} mode={mode} seconds={lengthSeconds} /> : null}
          {upload ? <UploadStatus upload={upload} onRetry={props.onRetryUpload} /> : null}
        </div>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {state === 'idle' ? (
          <>
            <Button size="lg" onClick={start} disabled={!stream || busy}>
              <Circle aria-hidden="true" className="fill-current" />
              Start Recording
            </Button>
            <Button size="lg" variant="outline" onClick={props.onSkip} disabled={busy}>
              Skip Question
            </Button>
          </>
        ) : state === 'recording' ? (
          <Button size="lg" variant="destructive" onClick={() => void stop(false)}>
            <Square aria-hidden="true" className="fill-current" />
            Stop Recording
          </Button>
        ) : (
          <Button size="lg" onClick={props.onNext} disabled={busy}>
            {isLast ? 'Complete Session' : 'Next Question'}
          </Button>
        )}
      </div>
      {state === 'idle' && !stream && !mediaError ? (
        <p className="text-sm text-muted-foreground">Waiting for your {mode === 'video' ? 'camera and microphone' : 'microphone'}…</p>
      ) : null}
    </section>
  )
}
