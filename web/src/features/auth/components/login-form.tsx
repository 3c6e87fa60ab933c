import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { loginDestination } from '@/lib/professions'
import { useLogin } from '../api/login'
import { AuthCard } from './auth-card'
import { readFrom } from './from-state'

export const LOGGING_IN = 'Logging in...'
export const LOGGED_IN = 'Logged in. Redirecting...'

export function LoginForm() {
  const navigate = useNavigate()
  const location = useLocation()
  const from = readFrom(location.state)
  const mutation = useLogin()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (mutation.isPending) return
    mutation.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (data) => {
          toast.success(`Logged in as ${data.user.name || data.user.email}.`)
          navigate(loginDestination(data.user.role, from), { replace: true })
        },
        onError: (err) => console.error('login failed:', err),
      },
    )
  }

  const status = mutation.isPending ? LOGGING_IN : mutation.isSuccess ? LOGGED_IN : null
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <AuthCard
      title="Log in"
      description="Welcome back. Log in to keep practising."
      footer={
        <>
          <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
            Forgot your password?
          </Link>
          <p className="text-muted-foreground">
            New here?{' '}
            <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
              Create an account
            </Link>
          </p>
        </>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" disabled={mutation.isPending} className="w-full">
          Log in
        </Button>
        <FormStatus status={status} error={error} />
      </form>
    </AuthCard>
  )
}
