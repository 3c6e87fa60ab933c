import { useCallback, useEffect, useRef, useState } from 'react'
import { Link, Navigate, useBlocker, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FormStatus } from '@/components/ui/form-status'
import { PageStatus } from '@/components/ui/page-status'
import { ProfessionTag, type ProfessionNames } from '@/components/profession-tag'
import { SessionLoadError } from '@/components/session-load-error'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { UsagePauseNotice, type UsagePause } from '@/components/usage-pause-notice'
import { errorMessage } from '@/lib/api-client'
import type { RecordedAnswer } from '@/lib/media'
import type { ProfessionSlug } from '@/lib/professions'
import { useCompletePracticeSession } from '../api/complete-practice-session'
import { usePracticeSession, type PracticeSession as Session } from '../api/get-practice-session'
import { useSkipQuestion } from '../api/skip-question'
import type { Observed } from '../api/finish-answer'
import { usePracticePreferences } from '../api/get-practice-preferences'
import { useAnswerUploads } from '../hooks/use-answer-uploads'
import { hasRecogniser } from '@/lib/speech-recognition'
import { loadFaceMesh, type FaceMesh } from '@/lib/face-watch/face-mesh'
import { useMediaStream } from '../hooks/use-media-stream'
import { FORMAT_TEXT } from '@/lib/formats'
import { QuestionRecorder } from './question-recorder'
import { TypedAnswer } from './typed-answer'

/** What keeps the student oriented next to the profession: format, timing and mode. */
function sessionDetail(session: Session): string {
  const parts = [FORMAT_TEXT[session.format].label]
  if (session.extension === 'off') parts.push('untimed')
  else if (session.extension !== '1') parts.push(`${session.extension}× time`)
  parts.push(session.mode === 'video' ? 'Video' : 'Audio')
  return parts.join(' · ')
}

/** Whole seconds since the session was created (the server's start), never negative. */
function secondsSince(iso: string): number {
  return Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000))
}

/**
 * readPause reads the account's usage pause now (undefined: none), for the
 * session to end at an answer's end once the answer just given used the
 * last of the allowance, rather than be refused as the next one begins.
 */
type ReadPause = () => Promise<UsagePause | undefined>

/**
 * Why a session stopped before its last question. The server refused the
 * answer being recorded, which is lost (its text, and the pause once read,
 * when the refusal was the usage guard's); or the pause was read first:
 * the answer just given used the last of the allowance, or the session
 * was opened (a reload) while practice was paused.
 */
type Stopped = { when: 'refused'; message: string; pause?: UsagePause } | { when: 'after-answer' | 'on-arrival'; pause: UsagePause }

const STOPPED_OUTCOME: Record<Exclude<Stopped['when'], 'refused'>, string> = {
  'after-answer': 'Your last answer was saved and is being scored with the others. The session ends here.',
  'on-arrival': 'The answers you gave are saved. The session ends here.',
}

export function PracticeSession({
  sessionId,
  slug,
  nameOf,
  readPause,
}: {
  sessionId: string
  slug: ProfessionSlug
  nameOf: ProfessionNames
  readPause: ReadPause
}) {
  // Loaded once: the runner keeps its own state from here, and a failed
  // background refetch must not unmount it mid-answer.
  const session = usePracticeSession(sessionId, { live: false })
  if (session.isPending) return <PageStatus>Loading...</PageStatus>
  if (!session.data) {
    return <SessionLoadError error={session.error} slug={slug} />
  }
  if (session.data.status === 'completed') return <Navigate to={`/${slug}/summary?id=${encodeURIComponent(sessionId)}`} replace />
  return <SessionRunner session={session.data} slug={slug} nameOf={nameOf} readPause={readPause} />
}

function SessionRunner({ session, slug, nameOf, readPause }: { session: Session; slug: ProfessionSlug; nameOf: ProfessionNames; readPause: ReadPause }) {
  const navigate = useNavigate()
  const items = session.items
  // After a reload, carry on at the first question without an answer.
  const [index, setIndex] = useState(() => {
    const first = items.findIndex((it) => it.status === 'pending')
    return first === -1 ? items.length : first
  })
  const [message, setMessage] = useState('')
  const [finishing, setFinishing] = useState(false)
  const [advancing, setAdvancing] = useState(false)
  const [stopped, setStopped] = useState<Stopped | null>(null)
  const leaving = useRef(false)
  const media = useMediaStream(session.mode, !stopped)
  const skip = useSkipQuestion()
  const complete = useCompletePracticeSession()
  const announce = useCallback((text: string) => setMessage(text), [])
  const leaveTo = useCallback(
    (path: string) => {
      leaving.current = true
      void navigate(path, { replace: true })
    },
    [navigate],
  )
  // Spec §8: refused (the usage guard's pause, or practice locked) as an
  // answer began: the session stops here and says so, with the pause's end
  // when it is one. The stopped view replaces the recorder, which stops the
  // MediaRecorder; the microphone is released. The answers already given
  // stay, and completing the session shows them (issue 41).
  const onRefused = useCallback(
    (message: string) => {
      setStopped((s) => s ?? { message, when: 'refused' })
      readPause().then(
        (pause) => pause && setStopped((s) => s?.when === 'refused' ? { ...s, pause } : s),
        () => {}, // the server's text stands alone
      )
    },
    [readPause],
  )
  // Opened while practice is paused (a reload): no answer would be taken.
  useEffect(() => {
    readPause().then(
      (pause) => pause && setStopped((s) => s ?? { pause, when: 'on-arrival' }),
      () => {}, // the server refuses the first piece if it must
    )
  }, [readPause])
  const uploads = useAnswerUploads(session.id, { onRefused, announce })
  const startUpload = uploads.start
  const saveAnswer = useCallback(
    (itemId: string, answer: RecordedAnswer, observed: Observed) => startUpload(itemId, answer.audio, observed),
    [startUpload],
  )
  // The student's choice; a browser without a recogniser is heard by the server.
  const prefs = usePracticePreferences().data
  const hearing = prefs && hasRecogniser() ? prefs.hearing : 'server'
  // Video delivery is measured on the device unless the student turned it
  // off: the face mesh loads now, while they read the first question.
  const watchVideo = session.mode === 'video' && prefs?.watchVideo === true
  const [faceMesh, setFaceMesh] = useState<Promise<FaceMesh> | null>(null)
  useEffect(() => {
    if (!watchVideo) return
    const mesh = loadFaceMesh()
    mesh.catch(() => {}) // each answer then says it was not measured
    setFaceMesh(mesh)
  }, [watchVideo])

  const blocker = useBlocker(({ currentLocation, nextLocation }) => !leaving.current && currentLocation.pathname !== nextLocation.pathname)
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (!leaving.current) e.preventDefault()
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [])

  async function finish() {
    setFinishing(true)
    announce('Finishing the session')
    await uploads.settled()
    complete.mutate(
      { sessionId: session.id, totalSessionTime: secondsSince(session.createdAt) },
      {
        onSuccess: () => leaveTo(`/${slug}/summary?id=${encodeURIComponent(session.id)}`),
        onError: () => setFinishing(false),
      },
    )
  }

  async function next() {
    if (index >= items.length - 1) return finish()
    // The answer just given may have used the last of the usage allowance:
    // then the session ends with it, kept and scored, instead of the next
    // answer being refused once the student has begun it.
    setAdvancing(true)
    const pause = await readPause().catch(() => undefined)
    setAdvancing(false)
    // The stopped view's heading takes the focus, which says it.
    if (pause) setStopped({ pause, when: 'after-answer' })
    else setIndex(index + 1)
  }

  const item = items[index]
  const untimed = session.extension === 'off'
  const busy = finishing || advancing || skip.isPending
  const error = complete.error ?? skip.error

  return (
    <div className="grid gap-6">
      <ProfessionTag name={nameOf(session.profession)} detail={sessionDetail(session)} />
      <div role="status" aria-live="polite" className="sr-only">
        {message}
      </div>
      {stopped ? (
        <SessionStopped stopped={stopped} answered={index > 0} busy={busy} onComplete={() => void finish()} />
      ) : item?.kind === 'typed' ? (
        <TypedAnswer
          key={item.id}
          sessionId={session.id}
          item={item}
          position={index + 1}
          total={items.length}
          untimed={untimed}
          busy={busy}
          announce={announce}
          onSkip={() => skip.mutate({ sessionId: session.id, itemId: item.id }, { onSuccess: () => void next() })}
          onNext={() => void next()}
        />
      ) : item ? (
        <QuestionRecorder
          key={item.id}
          item={item}
          position={index + 1}
          total={items.length}
          mode={session.mode}
          untimed={untimed}
          specLimit={session.format === 'traditional' && session.extension === '1' && item.answerSeconds === session.answerLimitSeconds}
          stream={media.stream}
          mediaError={media.error}
          upload={uploads.uploads[item.id]}
          busy={busy}
          announce={announce}
          onRecordingStarted={uploads.startStream}
          hearing={hearing}
          captions={prefs?.captions ?? true}
          faceMesh={watchVideo ? faceMesh : null}
          onSaved={saveAnswer}
          onRetryUpload={() => {
            const failed = uploads.uploads[item.id]
            if (failed) uploads.start(item.id, failed.audio)
          }}
          onSkip={() => skip.mutate({ sessionId: session.id, itemId: item.id }, { onSuccess: () => void next() })}
          onNext={() => void next()}
        />
      ) : (
        <div className="grid justify-items-start gap-3">
          <h1 className="text-2xl font-bold">Every question has an answer.</h1>
          <Button size="lg" onClick={() => void finish()} disabled={busy}>
            Complete Session
          </Button>
        </div>
      )}

      {finishing && uploads.busy ? <p className="text-sm text-muted-foreground">Finishing your uploads…</p> : null}
      {uploads.failed > 0 && !uploads.busy ? (
        <p className="text-sm text-muted-foreground">Answers that failed to upload count as skipped when you complete the session.</p>
      ) : null}
      {/* One row: an empty status line must not open a gap of its own
          between the question's buttons and the way out. */}
      <div className="grid gap-2">
        <FormStatus error={error ? errorMessage(error) : null} className="min-h-0" />
        <div>
          <Button asChild variant="link" className="px-0">
            <Link to={`/${slug}/dashboard`}>Leave session</Link>
          </Button>
        </div>
      </div>

      <Dialog open={blocker.state === 'blocked'} onOpenChange={(open) => !open && blocker.reset?.()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Leave this practice session?</DialogTitle>
            <DialogDescription>Answers already uploaded are kept; the question you are on is not.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button variant="destructive" onClick={() => blocker.proceed?.()}>
              Leave session
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}

/**
 * The session ended early by the server's refusal: why (the pause, with
 * when practice opens again), what became of the answers, and the way to
 * their feedback. Its heading takes the focus, so that a screen reader
 * says what happened where the question was.
 */
function SessionStopped({ stopped, answered, busy, onComplete }: { stopped: Stopped; answered: boolean; busy: boolean; onComplete: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [stopped.pause])
  const outcome =
    stopped.when === 'refused'
      ? `The answer you had begun could not be sent, so it is not kept.${answered ? ' The answers you gave before it are saved.' : ''}`
      : STOPPED_OUTCOME[stopped.when]
  return (
    <div className="grid justify-items-start gap-4 [&_h1]:text-2xl [&_h1]:outline-none">
      {stopped.pause ? (
        <UsagePauseNotice pause={stopped.pause} titleAs="h1" titleRef={heading}>
          <p>{outcome}</p>
        </UsagePauseNotice>
      ) : (
        <Alert variant="warning">
          <div>
            <AlertTitle as="h1" ref={heading} tabIndex={-1}>
              Practice stopped
            </AlertTitle>
            <AlertDescription className="grid gap-1">
              {stopped.when === 'refused' ? <p>{stopped.message}</p> : null}
              <p>{outcome}</p>
            </AlertDescription>
          </div>
        </Alert>
      )}
      <Button size="lg" onClick={onComplete} disabled={busy}>
        Complete Session
      </Button>
    </div>
  )
}
