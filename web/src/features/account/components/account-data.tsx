import { Download, Trash2 } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { errorMessage } from '@/lib/api-client'
import { useDeleteAccount } from '../api/delete-account'

export const EXPORT_JSON_URL = '/api/account/export'
export const EXPORT_CSV_URL = '/api/account/export.csv'

export const CONFIRM_WITH_GOOGLE = 'Confirm with Google and delete'

type Props = {
  onDeleted: (message: string) => void
  /** Opens a fresh sign-in with Google and returns its ID token; absent when the server offers none. */
  freshSignIn?: (() => Promise<string>) | null
}

/**
 * "Your data": download everything we hold, or delete the account after
 * typing the password again, or, for an account made with Google (which
 * has no password its owner knows), after signing in with Google again.
 * onDeleted runs once the account is gone (the sign-in with it) with the
 * server's note of what was kept.
 */
export function AccountData({ onDeleted, freshSignIn }: Props) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>Download everything we hold about you, or delete your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button asChild variant="outline">
          <a href={EXPORT_JSON_URL} download>
            <Download aria-hidden="true" />
            Download my data (JSON)
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={EXPORT_CSV_URL} download>
            <Download aria-hidden="true" />
            Download my sessions (CSV)
          </a>
        </Button>
        <DeleteAccountDialog onDeleted={onDeleted} freshSignIn={freshSignIn} />
      </CardContent>
    </Card>
  )
}

function DeleteAccountDialog({ onDeleted, freshSignIn }: Props) {
  const [open, setOpen] = useState(false)
  const [password, setPassword] = useState('')
  const remove = useDeleteAccount()
  const passwordId = useId()
  const googleHintId = useId()

  function onOpenChange(next: boolean) {
    setOpen(next)
    if (!next) {
      setPassword('')
      remove.reset()
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    remove.mutate({ password }, { onSuccess: (data) => onDeleted(data.message) })
  }

  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogTrigger asChild>
        {/* Outlined in red: a solid red button shouted from the dashboard; the dialog it opens carries the solid one. */}
        <Button variant="outline" className="border-destructive/50 text-destructive hover:bg-red-50">
          <Trash2 aria-hidden="true" />
          Delete my account
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onOpenAutoFocus={(e) => {
          // The password is what the dialog asks for: start there, not on Cancel.
          e.preventDefault()
          document.getElementById(passwordId)?.focus()
        }}
      >
        <form onSubmit={onSubmit} className="grid gap-4">
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription>
            Your account, practice sessions, answers, feedback and saved sessions will be deleted and you will be signed out everywhere.
            This cannot be undone. Payment records are kept, no longer linked to you, because accounting law requires it.
          </AlertDialogDescription>
          <FormField
            id={passwordId}
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={remove.isError || undefined}
          />
          {freshSignIn ? (
            <div className="grid gap-2">
              <p id={googleHintId} className="text-sm text-muted-foreground">
                Made your account with Google and never set a password? Sign in with Google again instead.
              </p>
              <Button
                type="button"
                variant="outline"
                aria-describedby={googleHintId}
                disabled={remove.isPending}
                onClick={() => remove.mutate({ freshSignIn }, { onSuccess: (data) => onDeleted(data.message) })}
              >
                {CONFIRM_WITH_GOOGLE}
              </Button>
            </div>
          ) : null}
          {remove.isError ? (
            <Alert variant="destructive" role="alert">
              <AlertDescription>{errorMessage(remove.error)}</AlertDescription>
            </Alert>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={remove.isPending || password === ''}>
              {remove.isPending ? 'Deleting…' : 'Delete my account'}
            </Button>
          </div>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  )
}
