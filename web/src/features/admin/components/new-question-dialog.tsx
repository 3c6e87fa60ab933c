import { useState } from 'react'
import { Plus } from 'lucide-react'
import { failures } from '@/api/failures'
import { toast } from '@/lib/toast'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { errorMessage } from '@/lib/api-client'
import { useCreateQuestion } from '../api/create-question'
import { addFailureMessage, EMPTY_QUESTION, isComplete, toQuestionInput } from '../utils/question-form'
import { QuestionEditor, type EditorError, type ProfessionOption } from './question-editor'

export function NewQuestionDialog({ professions }: { professions: ProfessionOption[] }) {
  const [open, setOpen] = useState(false)
  const [values, setValues] = useState(EMPTY_QUESTION)
  const [error, setError] = useState<EditorError | null>(null)
  const create = useCreateQuestion()

  function onOpenChange(next: boolean) {
    setOpen(next)
    if (next) {
      setValues(EMPTY_QUESTION)
      setError(null)
    }
  }

  function onSubmit() {
    // Checked here first so the admin is told without a round trip; the server checks again.
    if (!isComplete(values)) {
      setError({ message: failures.incompleteNewQuestion.message })
      return
    }
    setError(null)
    create.mutate(toQuestionInput(values), {
      onSuccess: () => {
        toast.success('Question added.')
        setOpen(false)
      },
      onError: (err) => setError({ message: addFailureMessage(err), detail: errorMessage(err) }),
    })
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          New question
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New question</DialogTitle>
          <DialogDescription>Question text and at least one profession are required.</DialogDescription>
        </DialogHeader>
        <QuestionEditor
          values={values}
          onChange={setValues}
          professions={professions}
          error={error}
          pending={create.isPending}
          submitLabel="Add question"
          pendingLabel="Adding..."
          onSubmit={onSubmit}
          onCancel={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  )
}
