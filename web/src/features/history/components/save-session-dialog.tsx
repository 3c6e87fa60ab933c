import { useState, type FormEvent, type ReactNode } from 'react'
import { toast } from '@/lib/toast'
import { limits } from '@/api/limits'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { useSavePracticeSession } from '../api/save-practice-session'
import { defaultSessionTitle } from '../utils/session-title'

export const SAVED_TOAST = 'Session saved to your dashboard.'
export const SAVE_FAILED_TOAST = 'Failed to save session. Please try again.'

/**
 * "Save Session" and its dialog: a title (default "Session {date/time}",
 * the time the session was practised, practisedAt), Save / Cancel. Once
 * saved, afterSave draws what the saved session offers beside the button
 * (sharing it, which is another feature's).
 */
export function SaveSessionDialog({
  sessionId,
  practisedAt,
  disabled,
  afterSave,
}: {
  sessionId: string
  practisedAt: string
  disabled: boolean
  afterSave?: (savedId: string) => ReactNode
}) {
  const [open, setOpen] = useState(false)
  const [title, setTitle] = useState('')
  const save = useSavePracticeSession()

  function onOpenChange(next: boolean) {
    if (next) setTitle(defaultSessionTitle(new Date(practisedAt)))
    setOpen(next)
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    save.mutate(
      { sessionId, title: title.trim() || defaultSessionTitle(new Date(practisedAt)) },
      {
        onSuccess: () => {
          toast.success(SAVED_TOAST)
          setOpen(false)
        },
        onError: () => toast.error(SAVE_FAILED_TOAST),
      },
    )
  }

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogTrigger asChild>
          {/* Outlined like the summary's other actions: a grey fill read as disabled. */}
          <Button variant="outline" disabled={disabled}>
            Save Session
          </Button>
        </DialogTrigger>
        <DialogContent>
          <form onSubmit={onSubmit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Save session</DialogTitle>
              <DialogDescription>Saved sessions appear on your dashboard. Recordings are never saved.</DialogDescription>
            </DialogHeader>
            <FormField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={limits.savePracticeSession.body.title.maxLength} />
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={save.isPending}>
                Save
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      {save.data && afterSave ? afterSave(save.data.id) : null}
    </>
  )
}
