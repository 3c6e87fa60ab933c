import { useCallback, useId, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api-client'
import { limits } from '@/api/limits'
import type { PracticeItem } from '../api/get-practice-session'
import { useAnswerInWriting } from '../api/answer-in-writing'
import { useCountdown } from '../hooks/use-countdown'
import { PhaseTimer } from './phase-timer'
import { Scenario } from './scenario-panel'

const MAX_LENGTH = limits.answerInWriting.body.text.maxLength

type TypedState = 'reading' | 'writing' | 'submitted'

/** The answers to each question, as one text: numbered when there are several. */
export function joinAnswers(answers: readonly string[]): string {
  const written = answers.map((a) => a.trim())
  if (written.length === 1) return written[0] ?? ''
  return written
    .map((a, i) => (a ? `${i + 1}. ${a}` : ''))
    .filter(Boolean)
    .join('\n\n')
}

interface Props {
  sessionId: string
  item: PracticeItem
  position: number
  total: number
  untimed: boolean
  busy: boolean
  announce: (text: string) => void
  onSkip: () => void
  onNext: () => void
}

/**
 * A typed part (Casper-style): the scenario to read, then its questions
 * with a box each under one clock. When time is up, what was written is
 * submitted (nothing written counts as skipped). Scored like a transcript.
 */
export function TypedAnswer({ sessionId, item, position, total, untimed, busy, announce, onSkip, onNext }: Props) {
  const [state, setState] = useState<TypedState>(item.prepSeconds > 0 ? 'reading' : 'writing')
  const questions = [item.question, ...item.followUps]
  const [answers, setAnswers] = useState<string[]>(() => questions.map(() => ''))
  const submit = useAnswerInWriting()
  const baseId = useId()
  const firstBox = useRef<HTMLTextAreaElement>(null)
  const text = joinAnswers(answers)

  const startWriting = useCallback(() => {
    setState('writing')
    announce('Reading time is over. Type your answers.')
    // The boxes appear with this render; focus the first once they exist.
    requestAnimationFrame(() => firstBox.current?.focus())
  }, [announce])

  const send = useCallback(
    (byLimit: boolean) => {
      if (submit.isPending || state === 'submitted') return
      if (joinAnswers(answers) === '') {
        announce(byLimit ? 'Time is up. Nothing was written, so the question is skipped.' : 'Write an answer first, or skip the question.')
        if (byLimit) onSkip()
        return
      }
      submit.mutate(
        { sessionId, itemId: item.id, text: joinAnswers(answers) },
        {
          onSuccess: () => {
            setState('submitted')
            announce(byLimit ? 'Time is up. Your answers were submitted.' : 'Your answers were submitted.')
          },
        },
      )
    },
    [submit, state, answers, announce, onSkip, sessionId, item.id],
  )
  const reading = useCountdown({ running: state === 'reading', limit: untimed ? 0 : item.prepSeconds, onEnd: startWriting, announce })
  const sendAtLimit = useCallback(() => send(true), [send])
  const writing = useCountdown({ running: state === 'writing', limit: untimed ? 0 : item.answerSeconds, onEnd: sendAtLimit, announce })

  return (
    <section aria-labelledby="question-heading" className="grid gap-5">
      <div className="grid gap-3">
        <p className="text-sm font-medium text-muted-foreground">
          Typed response · {item.scenario ? 'Station' : 'Question'} {position} of {total}
        </p>
        <Scenario text={item.scenario} />
        <h1 id="question-heading" className="sr-only">
          Typed response to the scenario
        </h1>
      </div>

      {state === 'reading' ? (
        <div className="grid gap-3">
          <PhaseTimer label="Reading time" remaining={reading.remaining} elapsed={reading.elapsed} />
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button size="lg" onClick={startWriting}>
              Start writing now
            </Button>
            <Button size="lg" variant="outline" onClick={onSkip} disabled={busy}>
              Skip Question
            </Button>
          </div>
        </div>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            send(false)
          }}
        >
          {state === 'writing' ? <PhaseTimer label="Writing" remaining={writing.remaining} elapsed={writing.elapsed} /> : null}
          {questions.map((q, i) => (
            <div key={q} className="grid gap-2">
              <Label htmlFor={`${baseId}-${i}`} className="text-base leading-snug">
                {questions.length > 1 ? `${i + 1}. ` : ''}
                {q}
              </Label>
              <Textarea
                id={`${baseId}-${i}`}
                ref={i === 0 ? firstBox : undefined}
                value={answers[i]}
                onChange={(e) => setAnswers(answers.map((a, j) => (j === i ? e.target.value : a)))}
                readOnly={state === 'submitted'}
                rows={6}
                maxLength={MAX_LENGTH}
              />
            </div>
          ))}
          <p className="text-sm text-muted-foreground">
            {text.split(/\s+/).filter(Boolean).length} words · typed answers get feedback on content and structure, without speech figures.
          </p>
          <FormStatus status={submit.isPending ? 'Submitting…' : null} error={submit.isError ? errorMessage(submit.error) : null} />
          <div className="flex flex-col gap-3 sm:flex-row">
            {state === 'submitted' ? (
              <Button size="lg" type="button" onClick={onNext} disabled={busy}>
                {position === total ? 'Complete Session' : 'Next Question'}
              </Button>
            ) : (
              <>
                <Button size="lg" type="submit" disabled={submit.isPending || text === ''}>
                  Submit answers
                </Button>
                <Button size="lg" type="button" variant="outline" onClick={onSkip} disabled={busy || submit.isPending}>
                  Skip Question
                </Button>
              </>
            )}
          </div>
        </form>
      )}
    </section>
  )
}
