import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from '@/lib/toast'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { FormField } from '@/components/ui/form-field'
import { useResetPassword } from '../api/reset-password'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'

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

  const onSubmit = () =>
    mutation.mutate(
      { token, password },
      {
        onSuccess: (data) => {
          toast.success(data.message)
          navigate('/login', { replace: true })
        },
      },
    )

  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
          Request a new link
        </Link>
      }
    >
      <AuthForm
        mutation={mutation}
        onSubmit={onSubmit}
        submitLabel="Save new password"
        pendingStatus="Saving new password..."
        successStatus={(data) => data.message}
      >
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </AuthForm>
    </AuthCard>
  )
}
