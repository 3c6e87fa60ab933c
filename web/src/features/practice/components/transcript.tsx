import { useId, useRef, useState, type FormEvent } from 'react'
import { limits } from '@/api/limits'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Disclosure } from '@/components/ui/disclosure'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage } from '@/lib/api-client'
import { useCorrectTranscript } from '../api/correct-transcript'
import type { ResultEntry } from '../utils/summary'

const MAX_TRANSCRIPT = limits.correctTranscript.body.transcript.maxLength

/**
 * The transcript's words, with those the speech engine may have misheard
 * marked: a dotted underline and a tint to the eye, "may be misheard" to
 * a screen reader — never colour alone.
 */
function MarkedText({ text, parts }: { text: string; parts: ResultEntry['transcriptParts'] }) {
  return (
    <p className="whitespace-pre-wrap">
      {parts.length === 0
        ? text
        : parts.map((part, i) =>
            part.uncertain ? (
              <mark key={i} className="rounded-sm bg-amber-100 text-inherit underline decoration-amber-800 decoration-dotted decoration-2 underline-offset-4">
                {part.text}
                <span className="sr-only"> (may be misheard)</span>
              </mark>
            ) : (
              part.text
            ),
          )}
    </p>
  )
}

/** What the marks mean, said once under the transcript. */
function MarkLegend() {
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
      <mark aria-hidden="true" className="rounded-sm bg-amber-100 px-1 text-inherit underline decoration-amber-800 decoration-dotted decoration-2 underline-offset-4">
        word
      </mark>
      <span>A dotted underline marks a word we may have misheard.</span>
    </p>
  )
}

/**
 * An answer's transcript. When the speech engine misheard, the student
 * corrects it here and the answer is scored again on their words; a
 * corrected transcript says so and keeps what the engine heard. The words
 * the engine may have misheard are marked, also while the student
 * corrects them. Whether the editor is open may be held by the card, so
 * that its prompt to check those words can open it.
 */
export function Transcript({
  text,
  parts = [],
  correction,
  correctable,
  title = 'Transcript',
  editing: editingProp,
  onEditingChange,
}: {
  text: string
  /** The transcript with the words that may have been misheard marked (ResultEntry.transcriptParts). */
  parts?: ResultEntry['transcriptParts']
  /** "Transcript" for a spoken answer; a typed one is the student's own text. */
  title?: string
  correction: ResultEntry['correction']
  /** Where a correction goes; absent when this answer cannot be corrected. */
  correctable?: { sessionId: string; itemId: string }
  /** Whether the correction form is open, when the card holds it. */
  editing?: boolean
  onEditingChange?: (editing: boolean) => void
}) {
  const [editingHere, setEditingHere] = useState(false)
  const editing = editingProp ?? editingHere
  const setEditing = onEditingChange ?? setEditingHere
  const editButton = useRef<HTMLButtonElement>(null)
  const headingId = useId()
  const closeEditor = () => {
    setEditing(false)
    // Back to where the student started, not the top of the page.
    requestAnimationFrame(() => editButton.current?.focus())
  }
  const marked = parts.some((p) => p.uncertain)
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        {title}
        {correction ? <Badge variant="outline">Corrected by you</Badge> : null}
      </h3>
      {editing && correctable ? (
        <>
          {marked ? (
            <>
              <MarkedText text={text} parts={parts} />
              <MarkLegend />
            </>
          ) : null}
          <CorrectionForm initial={text} {...correctable} onDone={closeEditor} />
        </>
      ) : (
        <>
          <MarkedText text={text} parts={parts} />
          {marked ? <MarkLegend /> : null}
          {correction ? (
            <Disclosure label="What the speech engine heard" className="text-sm text-muted-foreground" buttonClassName="font-normal">
              <p className="mt-1 whitespace-pre-wrap">{correction.originalTranscript}</p>
            </Disclosure>
          ) : null}
          {correctable ? (
            <Button ref={editButton} variant="outline" size="sm" className="justify-self-start print:hidden" onClick={() => setEditing(true)}>
              Correct the transcript
            </Button>
          ) : null}
        </>
      )}
    </section>
  )
}

function CorrectionForm({ initial, sessionId, itemId, onDone }: { initial: string; sessionId: string; itemId: string; onDone: () => void }) {
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
