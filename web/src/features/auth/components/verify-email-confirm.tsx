import { useEffect } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from '@/lib/toast'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useConfirmVerification } from '../api/confirm-verification'
import { useMe } from '../api/get-me'
import { AuthCard } from './auth-card'

/**
 * The page a verification link opens. Opening it does nothing by itself (mail
 * scanners open links); the token is used only when the person presses the
 * button, which POSTs it.
 */
export function VerifyEmailConfirm({ token }: { token: string | null }) {
  const navigate = useNavigate()
  const me = useMe()
  const mutation = useConfirmVerification()
  const signedIn = me.data != null
  // A browser signed in to the account goes on to its dashboard once both
  // are known, whichever the page learns first: the button may be pressed
  // before the page knows who is signed in.
  useEffect(() => {
    if (mutation.isSuccess && signedIn) navigate('/dashboard', { replace: true })
  }, [mutation.isSuccess, signedIn, navigate])

  if (!token) {
    return (
      <AuthCard title="Verify your email">
        <Alert variant="destructive">
          <AlertTitle>This verification link is incomplete</AlertTitle>
          <AlertDescription>
            <p>Open the link from your email again, or log in and send a new one from your dashboard.</p>
          </AlertDescription>
        </Alert>
      </AuthCard>
    )
  }

  function onConfirm() {
    if (!token || mutation.isPending) return
    mutation.mutate(
      { token },
      {
        onSuccess: (data) => toast.success(data.message),
      },
    )
  }

  const status = mutation.isPending ? 'Confirming...' : mutation.isSuccess ? mutation.data.message : null
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <AuthCard title="Verify your email" description="Press the button to confirm this email address belongs to you.">
      <div className="grid gap-4">
        {mutation.isSuccess && me.isSuccess && !signedIn ? (
          <Button asChild className="w-full">
            <Link to="/login">Log in</Link>
          </Button>
        ) : (
          <Button onClick={onConfirm} disabled={mutation.isPending || mutation.isSuccess} className="w-full">
            Confirm my email
          </Button>
        )}
        <FormStatus status={status} error={error} />
      </div>
    </AuthCard>
  )
}
