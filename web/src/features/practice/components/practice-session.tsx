import { useCallback, useEffect, useRef, useState } from 'react'
import { Link, Navigate, useBlocker, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FormStatus } from '@/components/ui/form-status'
import { PageStatus } from '@/components/ui/page-status'
import { ProfessionTag, type ProfessionNames } from '@/components/profession-tag'
import { SessionLoadError } from '@/components/session-load-error'
import { errorMessage } from '@/lib/api-client'
import type { RecordedAnswer } from '@/lib/media'
import type { ProfessionSlug } from '@/lib/professions'
import { useCompletePracticeSession } from '../api/complete-practice-session'
import { usePracticeSession, type PracticeSession as Session } from '../api/get-practice-session'
import { useSkipQuestion } from '../api/skip-question'
import { usePracticePreferences } from '../api/get-practice-preferences'
import { useAnswerUploads } from '../hooks/use-answer-uploads'
import { hasRecogniser, type BrowserHeard } from '@/lib/speech-recognition'
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

export function PracticeSession({ sessionId, slug, nameOf }: { sessionId: string; slug: ProfessionSlug; nameOf: ProfessionNames }) {
  // Loaded once: the runner keeps its own state from here, and a failed
  // background refetch must not unmount it mid-answer.
  const session = usePracticeSession(sessionId, { live: false })
  if (session.isPending) return <PageStatus>Loading...</PageStatus>
  if (!session.data) {
    return <SessionLoadError error={session.error} slug={slug} />
  }
  if (session.data.status === 'completed') return <Navigate to={`/${slug}/summary?id=${encodeURIComponent(sessionId)}`} replace />
  return <SessionRunner session={session.data} slug={slug} nameOf={nameOf} />
}

function SessionRunner({ session, slug, nameOf }: { session: Session; slug: ProfessionSlug; nameOf: ProfessionNames }) {
  const navigate = useNavigate()
  const items = session.items
  // After a reload, carry on at the first question without an answer.
  const [index, setIndex] = useState(() => {
    const first = items.findIndex((it) => it.status === 'pending')
    return first === -1 ? items.length : first
  })
  const [message, setMessage] = useState('')
  const [finishing, setFinishing] = useState(false)
  const leaving = useRef(false)
  const media = useMediaStream(session.mode)
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
  // Spec §8: refused (the usage guard's pause, or practice locked), on to
  // the dashboard, which shows the account's state and its text: a state
  // the student can come back to, not a toast that fades. Leaving unmounts
  // the recorder, which stops the MediaRecorder and the microphone mid-answer.
  const onRefused = useCallback(() => leaveTo(`/${slug}/dashboard`), [leaveTo, slug])
  const uploads = useAnswerUploads(session.id, { onRefused, announce })
  const startUpload = uploads.start
  const saveAnswer = useCallback(
    (itemId: string, answer: RecordedAnswer, heard?: BrowserHeard) => startUpload(itemId, answer.audio, heard),
    [startUpload],
  )
  // The student's choice; a browser without a recogniser is heard by the server.
  const prefs = usePracticePreferences().data
  const hearing = prefs && hasRecogniser() ? prefs.hearing : 'server'

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

  function next() {
    if (index >= items.length - 1) void finish()
    else setIndex(index + 1)
  }

  const item = items[index]
  const untimed = session.extension === 'off'
  const busy = finishing || skip.isPending
  const error = complete.error ?? skip.error

  return (
    <div className="grid gap-6">
      <ProfessionTag name={nameOf(session.profession)} detail={sessionDetail(session)} />
      <div role="status" aria-live="polite" className="sr-only">
        {message}
      </div>
      {item?.kind === 'typed' ? (
        <TypedAnswer
          key={item.id}
          sessionId={session.id}
          item={item}
          position={index + 1}
          total={items.length}
          untimed={untimed}
          busy={busy}
          announce={announce}
          onSkip={() => skip.mutate({ sessionId: session.id, itemId: item.id }, { onSuccess: next })}
          onNext={next}
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
          onSaved={saveAnswer}
          onRetryUpload={() => {
            const failed = uploads.uploads[item.id]
            if (failed) uploads.start(item.id, failed.audio)
          }}
          onSkip={() => skip.mutate({ sessionId: session.id, itemId: item.id }, { onSuccess: next })}
          onNext={next}
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
      <FormStatus error={error ? errorMessage(error) : null} />

      <div>
        <Button asChild variant="link" className="px-0">
          <Link to={`/${slug}/dashboard`}>Leave session</Link>
        </Button>
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
