import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useSignup } from '../api/signup'
import { AuthCard } from './auth-card'

export const CREATING_ACCOUNT = 'Creating account...'

export function SignupForm() {
  const navigate = useNavigate()
  const mutation = useSignup()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (mutation.isPending) return
    mutation.mutate(
      { name: name.trim(), email: email.trim(), password },
      {
        onSuccess: () => {
          toast.success('Account created. Check your inbox for a verification link.')
          navigate('/dashboard', { replace: true })
        },
        onError: (err) => console.error('signup failed:', err),
      },
    )
  }

  const status = mutation.isPending ? CREATING_ACCOUNT : mutation.isSuccess ? 'Account created. Redirecting...' : null
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <AuthCard
      title="Create your free account"
      description="Start with a 7-day free trial and 2 free practice sessions."
      footer={
        <p className="text-muted-foreground">
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Log in
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Name" name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" disabled={mutation.isPending} className="w-full">
          Create account
        </Button>
        <FormStatus status={status} error={error} />
      </form>
    </AuthCard>
  )
}
