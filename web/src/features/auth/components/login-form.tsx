import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { toast } from '@/lib/toast'
import { FormField } from '@/components/ui/form-field'
import { loginDestination } from '@/lib/professions'
import type { User } from '../api/get-me'
import { useFirebaseSignIn } from '../api/firebase-sign-in'
import { useLogin } from '../api/login'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'
import { EnrolSecondFactor } from './enrol-second-factor'
import { FirebaseSignIn } from './firebase-sign-in'
import { readFrom } from './from-state'
import { SecondFactorForm } from './second-factor-form'

export const LOGGING_IN = 'Logging in...'
export const LOGGED_IN = 'Logged in. Redirecting...'

export function LoginForm() {
  const navigate = useNavigate()
  const location = useLocation()
  const from = readFrom(location.state)
  const mutation = useLogin()
  const firebase = useFirebaseSignIn()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')

  function signedIn(user: User) {
    toast.success(`Logged in as ${user.name || user.email}.`)
    navigate(loginDestination(user.role, from), { replace: true })
  }

  function firstStepDone(answer: { user: User; secondFactor?: string }) {
    if (!answer.secondFactor) signedIn(answer.user)
  }

  function onSubmit() {
    mutation.mutate(
      { email: email.trim(), password },
      {
        onSuccess: firstStepDone,
        onError: (err) => console.error('login failed:', err),
      },
    )
  }

  // Admins: the password (or Firebase) is the first of two steps.
  const secondFactor = (mutation.data ?? firebase.data)?.secondFactor
  if (secondFactor === 'code') return <SecondFactorForm onSignedIn={signedIn} />
  if (secondFactor === 'enrol') return <EnrolSecondFactor onSignedIn={signedIn} />

  return (
    <AuthCard
      title="Log in"
      description="Welcome back. Log in to keep practicing."
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
      <AuthForm mutation={mutation} onSubmit={onSubmit} submitLabel="Log in" pendingStatus={LOGGING_IN} successStatus={LOGGED_IN}>
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
      </AuthForm>
      <FirebaseSignIn
        disabled={mutation.isPending}
        mutation={firebase}
        onClick={(config) => firebase.mutate(config, { onSuccess: firstStepDone, onError: (err) => console.error('firebase sign-in failed:', err) })}
      />
    </AuthCard>
  )
}
