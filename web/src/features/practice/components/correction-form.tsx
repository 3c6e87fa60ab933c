import { useId, useState, type FormEvent } from 'react'
import { limits } from '@/api/limits'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api-client'
import { useCorrectTranscript } from '../api/correct-transcript'

const MAX_TRANSCRIPT = limits.correctTranscript.body.transcript.maxLength

/** The student's own transcript, corrected and scored again (the answer card's correction form). */
export function CorrectionForm({ initial, sessionId, itemId, onDone }: { initial: string; sessionId: string; itemId: string; onDone: () => void }) {
  const [value, setValue] = useState(initial)
  const correct = useCorrectTranscript()
  const fieldId = useId()
  const hintId = useId()
  const errorId = useId()
  const tooLong = value.length > MAX_TRANSCRIPT
  function submit(event: FormEvent) {
    event.preventDefault()
    if (tooLong) return
    correct.mutate({ sessionId, itemId, transcript: value }, { onSuccess: onDone })
  }
  return (
    <form onSubmit={submit} className="grid gap-2" aria-busy={correct.isPending}>
      <Label htmlFor={fieldId}>Corrected transcript</Label>
      <Textarea
        id={fieldId}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        rows={6}
        // The field opens when the student presses to correct the transcript,
        // so focus follows their own action; nothing moves on page load,
        // which is what the rule guards against.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus
        aria-describedby={`${hintId}${correct.isError ? ` ${errorId}` : ''}`}
        aria-invalid={tooLong || correct.isError}
        disabled={correct.isPending}
      />
      <p id={hintId} className="text-sm text-muted-foreground">
        Write what you said; the answer is scored again on it and what the speech engine heard is kept. Pace, fillers and pauses come from the recording
        and stay as they are.{' '}
        <span className={tooLong ? 'font-medium text-destructive' : undefined}>
          {value.length.toLocaleString()} / {MAX_TRANSCRIPT.toLocaleString()} characters
        </span>
      </p>
      {correct.isError ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {errorMessage(correct.error)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={correct.isPending || tooLong}>
          {correct.isPending ? 'Scoring again…' : 'Save and score again'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone} disabled={correct.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
