import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import type { User } from '../api/get-me'
import { usePassSecondFactor } from '../api/second-factor'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'
import { useFocusOnMount } from '../hooks/use-focus-on-mount'

export const CODE_STEP_TITLE = 'Enter your authentication code'

/**
 * The second step of an admin's login: a code from the authenticator app,
 * or, with the phone lost, one of the recovery codes.
 */
export function SecondFactorForm({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const mutation = usePassSecondFactor()
  const [code, setCode] = useState('')
  const [recovery, setRecovery] = useState(false)
  const field = useFocusOnMount<HTMLInputElement>()

  function switchKind() {
    setRecovery(!recovery)
    setCode('')
    mutation.reset()
    field.current?.focus()
  }

  return (
    <AuthCard
      title={CODE_STEP_TITLE}
      description={
        recovery
          ? 'Enter one of the recovery codes you saved when you set up your second factor. Each code works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for Whitecoat.'
      }
      footer={
        <Button variant="link" className="h-auto p-0 text-left whitespace-normal" onClick={switchKind}>
          {recovery ? 'Use a code from the authenticator app' : 'Lost your phone? Use a recovery code'}
        </Button>
      }
    >
      <AuthForm
        mutation={mutation}
        onSubmit={() => mutation.mutate(code, { onSuccess: (data) => onSignedIn(data.user) })}
        submitLabel="Continue"
        pendingStatus="Checking the code..."
        successStatus="Logged in. Redirecting..."
      >
        <FormField
          ref={field}
          label={recovery ? 'Recovery code' : 'Authentication code'}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={recovery ? 64 : 6}
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </AuthForm>
    </AuthCard>
  )
}
