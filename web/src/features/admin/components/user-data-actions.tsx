import { FileBraces, FileSpreadsheet, Trash2 } from 'lucide-react'
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
import { errorMessage } from '@/lib/api-client'
import { useDeleteUser } from '../api/delete-user'

/**
 * A user's data rights, exercised by an admin on the user's request: three
 * icon buttons, named for screen readers and in a tooltip, so that the
 * users table's last column stays narrow.
 */
export function UserDataActions({ userId, name }: { userId: string; name: string }) {
  const remove = useDeleteUser()
  const base = `/api/admin/users/${encodeURIComponent(userId)}`

  function onDelete() {
    remove.mutate(userId, {
      onSuccess: (data) => toast.success(`${name}’s account has been deleted.`, { description: data.message }),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  return (
    <div className="flex gap-1">
      <Button asChild variant="ghost" size="icon" className="size-8">
        <a href={`${base}/export`} download aria-label={`Download ${name}’s data (JSON)`} title="Download data (JSON)">
          <FileBraces aria-hidden="true" />
        </a>
      </Button>
      <Button asChild variant="ghost" size="icon" className="size-8">
        <a href={`${base}/export.csv`} download aria-label={`Download ${name}’s sessions (CSV)`} title="Download sessions (CSV)">
          <FileSpreadsheet aria-hidden="true" />
        </a>
      </Button>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button variant="ghost" size="icon" className="size-8 text-destructive" disabled={remove.isPending} aria-label={`Delete ${name}’s account`} title="Delete account">
            <Trash2 aria-hidden="true" />
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogTitle>Delete {name}’s account?</AlertDialogTitle>
          <AlertDialogDescription>
            Only on the user’s request. Their account, sessions, saved sessions and recordings are deleted and every sign-in ends; payment
            records are kept for accounting, no longer linked to them. This cannot be undone.
          </AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={onDelete}>Delete account</AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  )
}
