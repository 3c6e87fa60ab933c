import { useId, useState, type ReactNode } from 'react'
import { Pencil, Trash2 } from 'lucide-react'
import { failures } from '@/api/failures'
import { toast } from '@/lib/toast'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { errorMessage } from '@/lib/api-client'
import { useDeleteQuestion } from '../api/delete-question'
import { useQuestion } from '../api/get-question'
import type { Question } from '../api/list-questions'
import { editedMeanwhile, useUpdateQuestion } from '../api/update-question'
import { isComplete, toQuestionInput, valuesFromQuestion, type QuestionValues } from '../utils/question-form'
import { FormError } from './form-error'
import { professionNames, QuestionEditor, type EditorError, type ProfessionOption } from './question-editor'

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  )
}

/** Points or traps with the phrases that show each. */
function PointList({ points, none }: { points: Question['points']; none: string }) {
  if (!points?.length) return <>{none}</>
  return (
    <ol className="ml-5 grid list-decimal gap-1">
      {points.map((p) => (
        <li key={p.text}>
          {p.text}
          {p.cues?.length ? <span className="block text-muted-foreground">Phrases: {p.cues.join('; ')}</span> : null}
        </li>
      ))}
    </ol>
  )
}

/** A question's fields as the dialog shows them, and who changed it last. */
function QuestionDetails({ question, professions }: { question: Question; professions: ProfessionOption[] }) {
  return (
    <dl className="grid gap-4">
      {question.scenario ? <Detail term="Scenario">{question.scenario}</Detail> : null}
      <Detail term={question.scenario ? 'Station prompt' : 'Question'}>{question.text}</Detail>
      {question.followUps?.length ? (
        <Detail term="Follow-up prompts">
          <ol className="ml-5 list-decimal">
            {question.followUps.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ol>
        </Detail>
      ) : null}
      <Detail term="Professions">{professionNames(question.mainTags, professions)}</Detail>
      <Detail term="Subtag">{question.subtag || 'None'}</Detail>
      <Detail term="Tip">{question.tip || 'None'}</Detail>
      <Detail term="Big 3">{question.big3 ? `Yes, asked ${question.big3Order} of 3` : 'No'}</Detail>
      <Detail term="Points a strong answer makes">
        <PointList points={question.points} none="None: judged by the general rubric for its kind" />
      </Detail>
      <Detail term="Traps to avoid">
        <PointList points={question.traps} none="None" />
      </Detail>
      {question.updatedAt ? (
        <Detail term="Last changed">
          <time dateTime={question.updatedAt}>{dateTimeFormat.format(new Date(question.updatedAt))}</time>
          {question.updatedBy ? ` by ${question.updatedBy}` : null}
        </Detail>
      ) : null}
    </dl>
  )
}

/**
 * One question (spec §4): view, then Edit -> Save or Cancel, or Delete after
 * a confirmation. `listed` is the row the admin opened; the dialog shows it
 * at once and refreshes it from the server.
 */
export function QuestionDialog({
  listed,
  professions,
  onClose,
  onCloseAutoFocus,
}: {
  listed: Question & { id: string }
  professions: ProfessionOption[]
  onClose: () => void
  /** Where focus goes when the dialog closes (Radix's event; preventDefault to move it yourself). */
  onCloseAutoFocus: (event: Event) => void
}) {
  const question = useQuestion(listed.id, listed)
  const current = question.data ?? listed
  const [editing, setEditing] = useState<QuestionValues | null>(null)
  // The version of the question the edit is made on: the one opened, or
  // the one saved meanwhile that the admin was shown when theirs was refused.
  const [base, setBase] = useState(current.version)
  const [savedMeanwhile, setSavedMeanwhile] = useState<Question | null>(null)
  const [error, setError] = useState<EditorError | null>(null)
  const update = useUpdateQuestion()
  const remove = useDeleteQuestion()
  const meanwhileId = useId()

  function startEditing() {
    setError(null)
    setSavedMeanwhile(null)
    setBase(current.version)
    setEditing(valuesFromQuestion(current))
  }

  function stopEditing() {
    setSavedMeanwhile(null)
    setEditing(null)
  }

  function onSave() {
    if (!editing) return
    if (!isComplete(editing)) {
      setError({ message: failures.incompleteQuestionEdit.message })
      return
    }
    setError(null)
    update.mutate(
      { id: listed.id, body: { ...toQuestionInput(editing), version: base } },
      {
        onSuccess: () => {
          toast.success('Question updated.')
          stopEditing()
        },
        onError: (err) => {
          setError({ message: errorMessage(err) })
          // Someone saved first: show theirs beside what this admin typed,
          // which a second Save puts over theirs.
          const theirs = editedMeanwhile(err)
          if (theirs) {
            setSavedMeanwhile(theirs)
            setBase(theirs.version)
          }
        },
      },
    )
  }

  function onDelete() {
    remove.mutate(listed.id, {
      onSuccess: () => {
        toast.success('Question deleted.')
        onClose()
      },
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit question' : 'Question'}</DialogTitle>
          <DialogDescription>{editing ? 'Question text and at least one profession are required.' : 'Details of this question in the bank.'}</DialogDescription>
        </DialogHeader>

        {editing && savedMeanwhile ? (
          <section aria-labelledby={meanwhileId} className="grid gap-3 rounded-md border bg-muted/40 p-4">
            <h3 id={meanwhileId} className="text-sm font-semibold">
              Their version
            </h3>
            <QuestionDetails question={savedMeanwhile} professions={professions} />
          </section>
        ) : null}
        {editing ? (
          <QuestionEditor
            values={editing}
            onChange={setEditing}
            professions={professions}
            error={error}
            pending={update.isPending}
            submitLabel="Save"
            pendingLabel="Saving..."
            onSubmit={onSave}
            onCancel={stopEditing}
          />
        ) : (
          <>
            {question.isError ? <FormError message={errorMessage(question.error)} /> : null}
            <QuestionDetails question={current} professions={professions} />
            <DialogFooter>
              <AlertDialog>
                <AlertDialogTrigger asChild>
                  <Button variant="destructive" disabled={remove.isPending}>
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                </AlertDialogTrigger>
                <AlertDialogContent>
                  <AlertDialogTitle>Delete this question?</AlertDialogTitle>
                  <AlertDialogDescription>“{current.text}” will be removed from the question bank. This cannot be undone.</AlertDialogDescription>
                  <DialogFooter>
                    <AlertDialogCancel>Cancel</AlertDialogCancel>
                    <AlertDialogAction onClick={onDelete}>Delete</AlertDialogAction>
                  </DialogFooter>
                </AlertDialogContent>
              </AlertDialog>
              <Button onClick={startEditing}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
