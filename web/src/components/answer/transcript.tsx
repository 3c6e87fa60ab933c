import { useId, useRef, useState, type ReactNode } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Disclosure } from '@/components/ui/disclosure'
import { formatClock } from '@/lib/session-time'
import { sourceNote, timedLines, type Answer, type AnswerMetrics, type TranscriptPart, type Word } from './answer'

/**
 * The transcript's words, with those the speech engine may have misheard
 * marked: a dotted underline and a tint to the eye, "may be misheard" to
 * a screen reader — never colour alone.
 */
function MarkedText({ text, parts }: { text: string; parts: readonly TranscriptPart[] }) {
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

/** The engine's words as said: a line at each pause, with its time. */
function TimedWords({ words }: { words: readonly Word[] }) {
  return (
    <Disclosure label="Words with times" className="text-sm" buttonClassName="font-normal text-primary">
      <ol className="mt-1 grid gap-1">
        {timedLines(words).map((line) => (
          <li key={line.start} className="flex gap-3">
            <span className="shrink-0 tabular-nums text-muted-foreground">{formatClock(line.start)}</span>
            <span>{line.text}</span>
          </li>
        ))}
      </ol>
    </Disclosure>
  )
}

/**
 * An answer's transcript, with the words the engine may have misheard
 * marked wherever it is shown. Where the student may correct it (their
 * own answer, with `correctionForm`), the answer is scored again on their
 * words; a corrected transcript says so and keeps what the engine heard.
 * The marks stay while the student corrects. Whether the editor is open
 * may be held by the card, so that its prompt to check those words can
 * open it.
 */
export function Transcript({
  text,
  parts = [],
  correction,
  correctionForm,
  title = 'Transcript',
  metrics,
  editing: editingProp,
  onEditingChange,
}: {
  text: string
  /** The transcript with the words that may have been misheard marked (Answer.transcriptParts). */
  parts?: readonly TranscriptPart[]
  /** "Transcript" for a spoken answer; a typed one is the student's own text. */
  title?: string
  /** A spoken answer's metrics: whose words these are, and their times. */
  metrics?: AnswerMetrics
  correction: Answer['correction']
  /** The form that corrects the transcript, given the text and what closes it; absent when this answer cannot be corrected here. */
  correctionForm?: (initial: string, onDone: () => void) => ReactNode
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
  // Once corrected, the words are the student's: the engine's source and timings no longer describe them.
  const source = correction ? null : sourceNote(metrics)
  const words = correction ? [] : (metrics?.words ?? [])
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        {title}
        {correction ? <Badge variant="outline">Corrected by you</Badge> : null}
      </h3>
      {editing && correctionForm ? (
        <>
          {marked ? (
            <>
              <MarkedText text={text} parts={parts} />
              <MarkLegend />
            </>
          ) : null}
          {correctionForm(text, closeEditor)}
        </>
      ) : (
        <>
          {source ? <p className="text-sm text-muted-foreground">{source}</p> : null}
          <MarkedText text={text} parts={parts} />
          {marked ? <MarkLegend /> : null}
          {words.length > 0 ? <TimedWords words={words} /> : null}
          {correction ? (
            <Disclosure label="What the speech engine heard" className="text-sm text-muted-foreground" buttonClassName="font-normal">
              <p className="mt-1 whitespace-pre-wrap">{correction.originalTranscript}</p>
            </Disclosure>
          ) : null}
          {correctionForm ? (
            <Button ref={editButton} variant="outline" size="sm" className="justify-self-start print:hidden" onClick={() => setEditing(true)}>
              Correct the transcript
            </Button>
          ) : null}
        </>
      )}
    </div>
  )
}
