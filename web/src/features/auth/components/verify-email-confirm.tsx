import { useEffect, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useConfirmVerification } from '../api/confirm-verification'
import { useMe } from '../api/get-me'
import { useResendVerification } from '../api/resend-verification'
import { AuthCard } from './auth-card'

function LogInButton() {
  return (
    <Button asChild className="w-full">
      <Link to="/login">Log in</Link>
    </Button>
  )
}

/** A used or expired link: log in, or have a new link sent. */
function NewLink({ email }: { email: string }) {
  const [address, setAddress] = useState(email)
  const resend = useResendVerification()
  function onSubmit(e: FormEvent) {
    e.preventDefault()
    resend.mutate({ email: address })
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-3">
      <FormField label="Email" type="email" required autoComplete="email" value={address} onChange={(e) => setAddress(e.target.value)} />
      <Button type="submit" variant="outline" disabled={resend.isPending} className="w-full">
        Send a new link
      </Button>
      <FormStatus status={resend.isPending ? 'Sending...' : resend.isSuccess ? resend.data.message : null} error={resend.isError ? errorMessage(resend.error) : null} />
    </form>
  )
}

/**
 * The page a verification link opens. Opening it does nothing by itself (mail
 * scanners open links); the token is used only when the person presses the
 * button, which POSTs it. The first confirmation signs the browser in and
 * the student lands on their dashboard with a welcome; otherwise the page
 * says what happened and offers the way on.
 */
export function VerifyEmailConfirm({ token }: { token: string | null }) {
  const navigate = useNavigate()
  const me = useMe()
  const mutation = useConfirmVerification()
  const signedIn = me.data != null
  // Signed in by the confirmation, or already signed in to the account: on
  // to the dashboard once both are known, whichever the page learns first
  // (the button may be pressed before the page knows who is signed in).
  const toDashboard = mutation.isSuccess && (mutation.data.signedIn || signedIn)
  useEffect(() => {
    if (toDashboard) navigate('/dashboard', { replace: true, state: { welcome: true } })
  }, [toDashboard, navigate])

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

  if (mutation.isError) {
    return (
      <AuthCard title="This link can’t be used" description="Log in if your email is already confirmed, or have a new link sent.">
        <div className="grid gap-4">
          <FormStatus error={errorMessage(mutation.error)} />
          <LogInButton />
          <NewLink email={me.data?.email ?? ''} />
        </div>
      </AuthCard>
    )
  }

  if (mutation.isSuccess && !toDashboard) {
    return (
      <AuthCard title="Email confirmed" description={mutation.data.message}>
        <LogInButton />
      </AuthCard>
    )
  }

  function onConfirm() {
    if (!token || mutation.isPending || mutation.isSuccess) return
    mutation.mutate({ token })
  }

  return (
    <AuthCard title="Confirm your email" description="Press the button to confirm this email address is yours. You’ll be signed in and taken to your dashboard.">
      <div className="grid gap-4">
        <Button onClick={onConfirm} disabled={mutation.isPending || mutation.isSuccess} className="w-full">
          Confirm my email
        </Button>
        <FormStatus status={mutation.isPending ? 'Confirming...' : mutation.isSuccess ? 'Signing you in...' : null} error={null} />
      </div>
    </AuthCard>
  )
}
