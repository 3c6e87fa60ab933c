import { Circle, Square } from 'lucide-react'
import { useCallback, useEffect, useReducer, useRef, useState, type SyntheticEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { startRecording, type RecordedAnswer } from '@/lib/media'
import { fallbackNote, listen, type Listener } from '@/lib/speech-recognition'
import type { FaceMesh } from '@/lib/face-watch/face-mesh'
import { watchFace, type FaceWatch } from '@/lib/face-watch/watch'
import type { Observed } from '../api/finish-answer'
import type { PracticeItem, PracticeSession } from '../api/get-practice-session'
import { useCountdown } from '../hooks/use-countdown'
import { useSettled } from '@/hooks/use-settled'
import { formatClock } from '@/lib/session-time'
import { followUpTimes } from '../utils/countdown'
import { initialRecorderState, recorderTransition } from '../utils/recorder'
import { MicLevel } from './mic-level'
import { PhaseTimer } from './phase-timer'
import { FollowUps, NotesPad, Scenario } from './scenario-panel'
import type { AnswerUpload } from '../hooks/use-answer-uploads'
import type { Hearing } from '../api/get-practice-preferences'
import { LocalEngineNote } from './hearing-choice'


interface Props {
  item: PracticeItem
  position: number
  total: number
  mode: PracticeSession['mode']
  /** Timing is off: no clock runs down (a recording still stops at the item's ceiling). */
  untimed: boolean
  /** The item's limit is the spec's 3 minutes, so its own message applies when it is reached. */
  specLimit: boolean
  stream: MediaStream | null
  mediaError: string | null
  upload: AnswerUpload | undefined
  /** True while the session is skipping, completing or otherwise busy. */
  busy: boolean
  announce: (text: string) => void
  /** A recording of the question starts: returns where its pieces go as they are recorded. */
  onRecordingStarted: (itemId: string, heardSoFar: () => string) => (piece: Blob) => void
  /** How the student chose to be heard, and whether live captions show. */
  hearing: Hearing
  captions: boolean
  /** The face mesh that watches a video answer on the device; null when nothing is measured. */
  faceMesh: Promise<FaceMesh> | null
  /** Stable across renders: the recording clock restarts whenever it changes. */
  onSaved: (itemId: string, answer: RecordedAnswer, observed: Observed) => void
  onRetryUpload: () => void
  onSkip: () => void
  onNext: () => void
}

/** What the student is told of the face mesh under the camera: loading, measuring, or unable to here. */
export const WATCH_NOTES = {
  pending: 'Getting the eye-contact measurement ready…',
  fulfilled: 'Eye contact, framing and steadiness are measured on this device while you answer; no picture is sent.',
  rejected: 'Eye contact and framing cannot be measured in this browser; your answer is recorded as usual.',
} as const

function WatchNote({ mesh }: { mesh: Promise<FaceMesh> | null }) {
  const settled = useSettled(mesh)
  if (!settled) return null
  return <p className="text-sm text-muted-foreground">{WATCH_NOTES[settled]}</p>
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
    // The student's own answer, just recorded: no captions exist yet (its
    // transcript comes with the feedback), and the student said the words.
    mode === 'video' ? (
      // eslint-disable-next-line jsx-a11y/media-has-caption
      <video src={url} controls playsInline onLoadedMetadata={revealDuration} aria-label="Replay your answer" className="aspect-video w-full rounded-lg bg-slate-900" />
    ) : (
      // eslint-disable-next-line jsx-a11y/media-has-caption
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
 * What the browser hears, as the student speaks. Not a live region: a
 * screen reader would read every interim word over the student's own
 * voice; the session says once that captions are on.
 */
function LiveCaptions({ text }: { text: string }) {
  return (
    <figure className="grid gap-1 rounded-md border bg-muted/50 p-3">
      <figcaption className="text-xs font-medium text-muted-foreground">Live captions · what your browser hears</figcaption>
      <p data-testid="live-captions" aria-live="off" className="min-h-12 text-base break-words">
        {text || <span className="text-muted-foreground">Listening…</span>}
      </p>
    </figure>
  )
}

/** Spec §8, verbatim even when tests shorten the limit: the traditional format's own message. */
export const LIMIT_REACHED = '3-minute limit reached. Your response was saved.'
/** The same for every other format's (or an extended) limit. */
export const TIME_UP_SAVED = 'Time is up. Your response was saved.'

const COUNTDOWN_FROM = 3

/**
 * True from when `until` (a performance.now() time) is set until it
 * passes. Released by the timer itself, never by comparing clocks: a timer
 * may fire a hair before performance.now() reaches its target.
 */
function useHeld(until: number): boolean {
  const [released, setReleased] = useState(until)
  useEffect(() => {
    const t = setTimeout(() => setReleased(until), Math.max(0, until - performance.now()))
    return () => clearTimeout(t)
  }, [until])
  return released !== until
}

/** 3-2-1 before recording starts by itself; said once, shown each second. */
function StartCountdown({ onDone, announce }: { onDone: () => void; announce: (text: string) => void }) {
  const [left, setLeft] = useState(COUNTDOWN_FROM)
  useEffect(() => announce(`Recording starts in ${COUNTDOWN_FROM} seconds`), [announce])
  useEffect(() => {
    if (left === 0) {
      onDone()
      return
    }
    const t = setTimeout(() => setLeft(left - 1), 1000)
    return () => clearTimeout(t)
  }, [left, onDone])
  return (
    <p className="flex items-center gap-3 text-lg font-semibold">
      Recording starts in
      <span aria-hidden="true" className="grid size-12 place-items-center rounded-full bg-primary text-2xl text-primary-foreground tabular-nums">
        {Math.max(left, 1)}
      </span>
    </p>
  )
}

/**
 * One question: its scenario and tip; for the timed formats, reading or
 * preparation time (with notes for a station) that can be ended early,
 * then a 3-2-1 countdown and recording that starts by itself; recording
 * (the phases in utils/recorder) with a clock that stops it at the limit and
 * an MMI station's follow-up prompts appearing as it runs; replay of the
 * saved answer from memory; and the way on (skip, next, complete). Keyed by
 * the question, so each question starts afresh.
 */
export function QuestionRecorder(props: Props) {
  const { item, position, total, mode, untimed, specLimit, stream, mediaError, upload, busy, announce, onSaved, hearing, captions, faceMesh } = props
  const listener = useRef<Listener | null>(null)
  const watcher = useRef<FaceWatch | null>(null)
  const [caption, setCaption] = useState('')
  const [fellBack, setFellBack] = useState('')
  const [{ phase, notes }, dispatch] = useReducer(recorderTransition, item, initialRecorderState)
  const isRecording = phase.name === 'recording'
  const saved = phase.name === 'saved' ? phase : null
  const held = useHeld(saved?.heldUntil ?? 0)
  const recording = useRef<ReturnType<typeof startRecording> | null>(null)
  const startedAt = useRef(0)
  const isLast = position === total
  const isStation = item.scenario !== ''

  const endPrep = useCallback(() => {
    announce(item.autoStart ? 'Preparation time is over' : 'Preparation time is over. Start recording when you are ready.')
    dispatch({ type: 'prepEnded' })
  }, [announce, item.autoStart])
  const prep = useCountdown({ running: phase.name === 'preparing', limit: untimed ? 0 : item.prepSeconds, onEnd: endPrep, announce })

  const stop = useCallback(
    async (byLimit: boolean) => {
      const rec = recording.current
      if (!rec) return // the limit and a click can arrive together
      recording.current = null
      const ear = listener.current
      listener.current = null
      const eye = watcher.current
      watcher.current = null
      const lengthSeconds = Math.min(item.answerSeconds, Math.round((performance.now() - startedAt.current) / 1000))
      const [answer, heard, seen] = await Promise.all([rec.stop(), ear?.stop(), eye?.stop()])
      dispatch({ type: 'saved', byLimit, replayUrl: URL.createObjectURL(answer.replay), lengthSeconds, at: performance.now() })
      announce(byLimit ? (specLimit ? LIMIT_REACHED : TIME_UP_SAVED) : 'Answer saved')
      onSaved(item.id, answer, { browserTranscript: heard && 'heard' in heard ? heard.heard : undefined, videoDelivery: seen })
    },
    [announce, onSaved, item.id, item.answerSeconds, specLimit],
  )
  const stopAtLimit = useCallback(() => void stop(true), [stop])
  const answer = useCountdown({ running: isRecording, limit: item.answerSeconds, onEnd: stopAtLimit, announce: untimed ? undefined : announce })

  const start = useCallback(() => {
    if (!stream) {
      dispatch({ type: 'micMissing' }) // the button waits for the microphone
      return
    }
    recording.current = startRecording(stream, mode, props.onRecordingStarted(item.id, () => listener.current?.heardSoFar() ?? ''))
    // The face mesh watches a video answer beside the recorder; whatever
    // becomes of it, the recording goes on.
    watcher.current = mode === 'video' && faceMesh ? watchFace(stream, faceMesh) : null
    // The browser's recogniser listens to the same microphone; any failure
    // leaves this answer to the server, said once.
    listener.current =
      hearing === 'server'
        ? null
        : listen({
            track: stream.getAudioTracks()[0],
            onDevice: hearing === 'device',
            onCaption: captions ? setCaption : undefined,
            onFail: (why) => {
              const note = fallbackNote(why)
              setFellBack(note)
              announce(note)
            },
          })
    startedAt.current = performance.now()
    dispatch({ type: 'recordingStarted' })
    announce('Recording started')
  }, [stream, mode, props, item.id, announce, hearing, captions, faceMesh])

  // Follow-up prompts: each at its time, or sooner when asked for.
  const due = followUpTimes(item.followUps.length, untimed ? 0 : item.answerSeconds).filter((t) => answer.elapsed >= t).length
  const asked = phase.name === 'recording' || phase.name === 'saved' ? Math.max(due, phase.askedEarly) : 0
  const announced = useRef(0)
  useEffect(() => {
    if (asked > announced.current && isRecording) {
      announce(`The interviewer asks: ${item.followUps[asked - 1]}`)
      announced.current = asked
    }
  }, [asked, isRecording, item.followUps, announce])

  // Leaving the question mid-recording stops the recorders; replay memory is freed.
  useEffect(
    () => () => {
      void recording.current?.stop()
      listener.current?.abort()
      void watcher.current?.stop()
    },
    [],
  )
  const replayUrl = saved?.replayUrl
  useEffect(() => () => {
    if (replayUrl) URL.revokeObjectURL(replayUrl)
  }, [replayUrl])

  return (
    <section aria-labelledby="question-heading" className="grid gap-5">
      <div className="grid gap-3">
        <p className="text-sm font-medium text-muted-foreground">
          {isStation ? 'Station' : 'Question'} {position} of {total}
        </p>
        {isStation ? <Scenario text={item.scenario} /> : null}
        <h1 id="question-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {item.question}
        </h1>
        {item.tip && !isRecording ? (
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

      {phase.name === 'preparing' ? (
        <div className="grid gap-3">
          <PhaseTimer label={isStation ? 'Reading time' : 'Preparation'} remaining={prep.remaining} elapsed={prep.elapsed} />
          <div>
            <Button size="lg" onClick={endPrep}>
              {item.autoStart ? 'Start answering now' : 'End preparation'}
            </Button>
          </div>
        </div>
      ) : null}
      {phase.name === 'countingDown' ? <StartCountdown onDone={start} announce={announce} /> : null}

      {mode === 'video' && stream && !saved ? <LivePreview stream={stream} /> : null}
      {mode === 'video' && !saved ? <WatchNote mesh={faceMesh} /> : null}
      {/* In both modes: the camera shows the face, not whether the microphone hears. */}
      {!saved && !mediaError ? <MicLevel stream={stream} /> : null}

      {isRecording ? (
        <div className="flex items-center gap-2">
          <Circle aria-hidden="true" className="size-3 animate-pulse fill-red-600 text-red-600" />
          <PhaseTimer label="Recording" remaining={untimed ? null : answer.remaining} elapsed={answer.elapsed} />
        </div>
      ) : null}
      {isRecording && captions && hearing !== 'server' && !fellBack ? <LiveCaptions text={caption} /> : null}
      {fellBack ? <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">{fellBack}</p> : null}
      <FollowUps prompts={item.followUps.slice(0, asked)} />
      {isRecording && asked < item.followUps.length ? (
        <div>
          <Button variant="outline" onClick={() => dispatch({ type: 'askedEarly', asked: asked + 1 })}>
            Ask the next follow-up now
          </Button>
        </div>
      ) : null}
      {isStation && item.kind === 'spoken' && !saved && (phase.name !== 'ready' || item.prepSeconds > 0) ? (
        <NotesPad id={`notes-${item.id}`} value={notes} onChange={(text) => dispatch({ type: 'notesChanged', notes: text })} />
      ) : null}

      {saved ? (
        <div className="grid gap-3">
          {saved.byLimit ? <p className="font-medium">{specLimit ? LIMIT_REACHED : TIME_UP_SAVED}</p> : <p className="font-medium">Your answer was saved.</p>}
          <Replay url={saved.replayUrl} mode={mode} seconds={saved.lengthSeconds} />
          {upload ? <UploadStatus upload={upload} onRetry={props.onRetryUpload} /> : null}
        </div>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {phase.name === 'ready' ? (
          <>
            <Button size="lg" onClick={start} disabled={!stream || busy}>
              <Circle aria-hidden="true" className="fill-current" />
              Start Recording
            </Button>
            <Button size="lg" variant="outline" onClick={props.onSkip} disabled={busy}>
              Skip Question
            </Button>
          </>
        ) : phase.name === 'preparing' ? (
          <Button size="lg" variant="outline" onClick={props.onSkip} disabled={busy}>
            Skip Question
          </Button>
        ) : isRecording ? (
          <Button size="lg" variant="destructive" onClick={() => void stop(false)}>
            <Square aria-hidden="true" className="fill-current" />
            Stop Recording
          </Button>
        ) : saved ? (
          <Button size="lg" onClick={props.onNext} disabled={busy || held}>
            {isLast ? 'Complete Session' : 'Next Question'}
          </Button>
        ) : null}
      </div>
      {position === 1 && (phase.name === 'ready' || phase.name === 'preparing') ? <LocalEngineNote hearing={hearing} /> : null}
      {phase.name === 'ready' && !stream && !mediaError ? (
        <p className="text-sm text-muted-foreground">Waiting for your {mode === 'video' ? 'camera and microphone' : 'microphone'}…</p>
      ) : null}
    </section>
  )
}
