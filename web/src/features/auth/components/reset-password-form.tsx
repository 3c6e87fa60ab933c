import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useResetPassword } from '../api/reset-password'
import { AuthCard } from './auth-card'

export function ResetPasswordForm({ token }: { token: string | null }) {
  const navigate = useNavigate()
  const mutation = useResetPassword()
  const [password, setPassword] = useState('')

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <Alert variant="destructive">
          <AlertTitle>This reset link is incomplete</AlertTitle>
          <AlertDescription>
            <p>
              Open the link from your email again, or{' '}
              <Link to="/forgot-password" className="font-medium underline">
                request a new one
              </Link>
              .
            </p>
          </AlertDescription>
        </Alert>
      </AuthCard>
    )
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (mutation.isPending || !token) return
    mutation.mutate(
      { token, password },
      {
        onSuccess: (data) => {
          toast.success(data.message)
          navigate('/login', { replace: true })
        },
      },
    )
  }

  const status = mutation.isPending ? 'Saving new password...' : mutation.isSuccess ? mutation.data.message : null
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
          Request a new link
        </Link>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" disabled={mutation.isPending} className="w-full">
          Save new password
        </Button>
        <FormStatus status={status} error={error} />
      </form>
    </AuthCard>
  )
}
