import { Mic, Square } from 'lucide-react'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { failures } from '@/api/failures'
import { IN_PROGRESS } from '@/components/answer/answer'
import { AnswerCard } from '@/components/answer/answer-card'
import { limits } from '@/api/limits'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, errorMessage, NETWORK_ERROR_MESSAGE } from '@/lib/api-client'
import { rememberTry } from '@/lib/pending-try'
import { formatClock } from '@/lib/session-time'
import { useRecordTry, type Try } from '../api/record-try'
import { useTry } from '../api/get-try'
import { useTryLimits } from '../api/get-try-limits'
import { useTypeTry } from '../api/type-try'

const MAX_TYPED = limits.typeTry.body.text.maxLength

/** The refusals that mean "this network, or everyone, has tried enough for now". */
const LIMIT_TYPES: readonly string[] = [failures.tooManyTriesFromNetwork.type, failures.tooManyTriesOverall.type]

function isLimit(err: unknown): boolean {
  return err instanceof ApiError && LIMIT_TYPES.includes(err.problem.type ?? '')
}

/** "2 minutes" for a whole number of minutes, else "1:30". */
function duration(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : formatClock(seconds)
}

type Mode = { name: 'choosing' } | { name: 'recording'; startedAt: number; stop: () => void } | { name: 'typing' }

/**
 * Recording the answer: the microphone opens on Start, and the answer
 * stops by itself at the limit. Start and Stop are one button that keeps
 * the keyboard focus. The recorder's code loads on the first Start: most
 * visitors to a landing page never press it.
 */
function useTryRecorder(maxSeconds: number, onRecorded: (audio: Blob) => void) {
  const [mode, setMode] = useState<Mode>({ name: 'choosing' })
  const [elapsed, setElapsed] = useState(0)
  const [micError, setMicError] = useState<string | null>(null)
  const recorded = useRef(onRecorded)
  recorded.current = onRecorded

  async function start() {
    setMicError(null)
    let media: typeof import('@/lib/media')
    try {
      media = await import('@/lib/media')
    } catch {
      // The recorder's code did not arrive; pressing Record again fetches it again.
      setMicError(NETWORK_ERROR_MESSAGE)
      return
    }
    let stream: MediaStream
    try {
      stream = await media.openMedia('audio')
    } catch (err) {
      setMicError((err as Error).message)
      return
    }
    const recording = media.startRecording(stream, 'audio', () => {})
    let stopped = false
    const stop = () => {
      if (stopped) return
      stopped = true
      void recording.stop().then(({ audio }) => {
        stream.getTracks().forEach((t) => t.stop())
        setMode({ name: 'choosing' })
        recorded.current(audio)
      })
    }
    setElapsed(0)
    setMode({ name: 'recording', startedAt: performance.now(), stop })
  }

  useEffect(() => {
    if (mode.name !== 'recording') return
    const timer = setInterval(() => {
      const seconds = (performance.now() - mode.startedAt) / 1000
      setElapsed(seconds)
      if (seconds >= maxSeconds) mode.stop()
    }, 250)
    return () => clearInterval(timer)
  }, [mode, maxSeconds])

  return { mode, setMode, elapsed, micError, start }
}

/**
 * Try the profession's default question without an account: record up to
 * the limit or type, then read the transcript and feedback, drawn by the
 * answer card every screen draws an answer with. The prerendered page has it with its buttons disabled: they work
 * once the app runs and knows the limits.
 */
export function TryQuestion({ slug }: { slug: string }) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-3 rounded-xl border border-border bg-background p-3 shadow-sm sm:p-6">
      <h3 id={headingId} className="text-lg font-semibold">
        Try it now, no account needed
      </h3>
      <TryPanel slug={slug} />
    </section>
  )
}

function TryPanel({ slug }: { slug: string }) {
  const limitsQuery = useTryLimits()
  const maxSeconds = limitsQuery.data?.maxAnswerSeconds ?? 0
  const keptFor = limitsQuery.data ? `${limitsQuery.data.keptHours} hours` : '…'

  const [token, setToken] = useState<string | null>(null)
  const record = useRecordTry()
  const type = useTypeTry()
  const tryQuery = useTry(token)
  const submitted = (t: Try) => setToken(t.id)
  const recorder = useTryRecorder(maxSeconds, (audio) => record.mutate({ slug, audio }, { onSuccess: submitted }))
  const [text, setText] = useState('')
  const textId = useId()

  const submitError = record.error ?? type.error
  const current = tryQuery.data
  const waiting = record.isPending || type.isPending || (current !== undefined && IN_PROGRESS.includes(current.status))

  if (current && !IN_PROGRESS.includes(current.status)) {
    return (
      <div className="grid gap-4">
        <FormStatus status={current.status === 'done' ? 'Your feedback is ready.' : null} error={current.status === 'failed' ? failures.tryFailed.message : null} />
        {current.status === 'done' ? <AnswerCard answer={current} id="try" /> : null}
        <div className="flex flex-wrap items-center gap-3">
          {current.status === 'done' ? (
            <Button asChild className="h-auto min-h-9 whitespace-normal py-2 text-left">
              <Link to="/signup" onClick={() => rememberTry(current.id)}>
                Create a free account to save this answer
              </Link>
            </Button>
          ) : (
            <Button asChild className="h-auto min-h-9 whitespace-normal py-2 text-left">
              <Link to="/signup">Create a free account to keep practicing</Link>
            </Button>
          )}
          <Button
            variant="outline"
            onClick={() => {
              setToken(null)
              record.reset()
              type.reset()
            }}
          >
            Try again
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">
          This answer and its feedback are deleted {keptFor} after you gave it, unless you save it: it then goes into your history once you
          confirm your email, and does not use one of your free sessions.
        </p>
      </div>
    )
  }

  const onType = (e: FormEvent) => {
    e.preventDefault()
    type.mutate({ slug, text }, { onSuccess: submitted })
  }
  const { mode } = recorder
  const status = waiting ? 'Scoring your answer…' : mode.name === 'recording' ? 'Recording.' : null
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground text-pretty">
        Answer it out loud for up to {maxSeconds ? duration(maxSeconds) : '…'}, or type it, and see your transcript and feedback here. Nothing is kept beyond {keptFor}.
      </p>
      {mode.name === 'typing' ? (
        <form onSubmit={onType} className="grid gap-2">
          <Label htmlFor={textId}>Your answer</Label>
          <Textarea id={textId} value={text} onChange={(e) => setText(e.target.value)} maxLength={MAX_TYPED} rows={6} required disabled={waiting} />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={waiting || !text.trim()}>
              Get feedback
            </Button>
            <Button type="button" variant="outline" onClick={() => recorder.setMode({ name: 'choosing' })} disabled={waiting}>
              Record instead
            </Button>
            <span className="text-xs text-muted-foreground tabular-nums">
              {text.length} / {MAX_TYPED}
            </span>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            onClick={() => (mode.name === 'recording' ? mode.stop() : void recorder.start())}
            disabled={waiting || !maxSeconds}
            variant={mode.name === 'recording' ? 'destructive' : 'default'}
          >
            {mode.name === 'recording' ? <Square aria-hidden="true" /> : <Mic aria-hidden="true" />}
            {mode.name === 'recording' ? 'Stop and get feedback' : 'Record your answer'}
          </Button>
          {mode.name === 'recording' ? (
            <span className="text-sm tabular-nums" aria-hidden="true">
              {formatClock(recorder.elapsed)} / {formatClock(maxSeconds)}
            </span>
          ) : (
            <Button variant="outline" onClick={() => recorder.setMode({ name: 'typing' })} disabled={waiting || !maxSeconds}>
              Type instead
            </Button>
          )}
        </div>
      )}
      <FormStatus status={status} error={recorder.micError ?? (submitError ? errorMessage(submitError) : null)} />
      {isLimit(submitError) ? (
        <Button asChild variant="outline" className="justify-self-start">
          <Link to="/signup">Sign up</Link>
        </Button>
      ) : null}
    </div>
  )
}
