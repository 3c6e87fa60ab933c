import { useState } from 'react'
import { Link } from 'react-router'
import { FormField } from '@/components/ui/form-field'
import { useSiteFacts } from '@/hooks/use-site-facts'
import { useSignup } from '../api/signup'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'
import { SignupCheckEmail } from './signup-check-email'

export const CREATING_ACCOUNT = 'Creating account...'

export function SignupForm() {
  const mutation = useSignup()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const facts = useSiteFacts()

  function onSubmit() {
    mutation.mutate({ name: name.trim(), email: email.trim(), password }, { onError: (err) => console.error('signup failed:', err) })
  }

  if (mutation.isSuccess) {
    return <SignupCheckEmail email={mutation.variables.email} message={mutation.data.message} onStartOver={() => mutation.reset()} />
  }

  return (
    <AuthCard
      title="Create your free account"
      description={
        facts ? `Start with a ${facts.trialDays}-day free trial and ${facts.freeSessions} free practice sessions.` : 'Start with a free trial and free practice sessions.'
      }
      footer={
        <div className="grid gap-2 text-muted-foreground">
          <p>
            By creating an account you {facts ? `confirm you are at least ${facts.minimumAge} and ` : ''}agree to the{' '}
            <Link to="/terms" className="font-medium text-primary underline-offset-4 hover:underline">
              Terms of Service
            </Link>{' '}
            and the{' '}
            <Link to="/privacy" className="font-medium text-primary underline-offset-4 hover:underline">
              Privacy Policy
            </Link>
            .
          </p>
          <p>
            Already have an account?{' '}
            <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
              Log in
            </Link>
          </p>
        </div>
      }
    >
      <AuthForm
        mutation={mutation}
        onSubmit={onSubmit}
        submitLabel="Create account"
        pendingStatus={CREATING_ACCOUNT}
        successStatus=""
      >
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
      </AuthForm>
    </AuthCard>
  )
}
