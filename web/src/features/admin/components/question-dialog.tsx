import { useState, type ReactNode } from 'react'
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
import { useUpdateQuestion } from '../api/update-question'
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
  const [error, setError] = useState<EditorError | null>(null)
  const update = useUpdateQuestion()
  const remove = useDeleteQuestion()

  function startEditing() {
    setError(null)
    setEditing(valuesFromQuestion(current))
  }

  function onSave() {
    if (!editing) return
    if (!isComplete(editing)) {
      setError({ message: failures.incompleteQuestionEdit.message })
      return
    }
    setError(null)
    update.mutate(
      { id: listed.id, body: toQuestionInput(editing) },
      {
        onSuccess: () => {
          toast.success('Question updated.')
          setEditing(null)
        },
        onError: (err) => setError({ message: errorMessage(err) }),
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
            onCancel={() => setEditing(null)}
          />
        ) : (
          <>
            {question.isError ? <FormError message={errorMessage(question.error)} /> : null}
            <dl className="grid gap-4">
              {current.scenario ? <Detail term="Scenario">{current.scenario}</Detail> : null}
              <Detail term={current.scenario ? 'Station prompt' : 'Question'}>{current.text}</Detail>
              {current.followUps?.length ? (
                <Detail term="Follow-up prompts">
                  <ol className="ml-5 list-decimal">
                    {current.followUps.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ol>
                </Detail>
              ) : null}
              <Detail term="Professions">{professionNames(current.mainTags, professions)}</Detail>
              <Detail term="Subtag">{current.subtag || 'None'}</Detail>
              <Detail term="Tip">{current.tip || 'None'}</Detail>
              <Detail term="Big 3">{current.big3 ? `Yes, asked ${current.big3Order} of 3` : 'No'}</Detail>
              {current.updatedAt ? (
                <Detail term="Last changed">
                  <time dateTime={current.updatedAt}>{dateTimeFormat.format(new Date(current.updatedAt))}</time>
                  {current.updatedBy ? ` by ${current.updatedBy}` : null}
                </Detail>
              ) : null}
            </dl>
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
