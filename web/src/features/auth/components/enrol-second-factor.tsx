import { useEffect, useRef, useState } from 'react'
import { QrCode } from '@/components/qr-code'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import type { User } from '../api/get-me'
import { useConfirmEnrolment, useStartEnrolment } from '../api/second-factor'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'
import { useFocusOnMount } from '../hooks/use-focus-on-mount'

export const ENROL_TITLE = 'Set up your second factor'
export const RECOVERY_TITLE = 'Save your recovery codes'
export const QR_LABEL = 'QR code to scan with your authenticator app'

/**
 * An admin's first login: they add Whitecoat to an authenticator app, prove
 * it with a first code, and see their recovery codes once.
 */
export function EnrolSecondFactor({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const start = useStartEnrolment()
  const confirm = useConfirmEnrolment()
  const started = useRef(false)
  useEffect(() => {
    // Once: every start replaces the secret, so a second one would make
    // the first shown useless.
    if (started.current) return
    started.current = true
    start.mutate()
  }, [start])

  if (confirm.isSuccess) {
    return <RecoveryCodes codes={confirm.data.recoveryCodes} onContinue={() => onSignedIn(confirm.data.user)} />
  }
  return (
    <AuthCard
      title={ENROL_TITLE}
      description="Admins log in with a code from an authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis) as well as their password."
    >
      {start.isSuccess ? (
        <EnrolmentSteps secret={start.data.secret} uri={start.data.uri} confirm={confirm} />
      ) : (
        <div className="grid gap-3">
          <FormStatus status="Preparing your setup key..." error={start.isError ? errorMessage(start.error) : null} />
          {start.isError ? (
            <Button variant="outline" onClick={() => start.mutate()}>
              Try again
            </Button>
          ) : null}
        </div>
      )}
    </AuthCard>
  )
}

function EnrolmentSteps({ secret, uri, confirm }: { secret: string; uri: string; confirm: ReturnType<typeof useConfirmEnrolment> }) {
  const [code, setCode] = useState('')
  const field = useFocusOnMount<HTMLInputElement>()
  return (
    <div className="grid gap-5">
      <ol className="grid list-decimal gap-3 pl-5 text-sm">
        <li>
          Add Whitecoat to your authenticator app: scan this code with it,{' '}
          <a href={uri} className="font-medium text-primary underline underline-offset-4">
            open it in the app
          </a>{' '}
          on the phone that has it, or choose "enter a setup key" in the app and type the key (time-based).
          <div className="mt-3 flex flex-col items-center gap-3 sm:flex-row sm:items-center">
            <QrCode text={uri} label={QR_LABEL} className="size-44 shrink-0 rounded-md border border-border" />
            <code aria-label={`Setup key: ${secret.split('').join(' ')}`} className="block w-full rounded-md bg-muted px-3 py-2 font-mono text-base tracking-wider break-words">
              {secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </div>
        </li>
        <li>Enter the 6-digit code the app now shows for Whitecoat.</li>
      </ol>
      <AuthForm
        mutation={confirm}
        onSubmit={() => confirm.mutate(code)}
        submitLabel="Turn on second factor"
        pendingStatus="Checking the code..."
        successStatus="Second factor on."
      >
        <FormField
          ref={field}
          label="6-digit code from the app"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </AuthForm>
    </div>
  )
}

function RecoveryCodes({ codes, onContinue }: { codes: string[]; onContinue: () => void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>()
  return (
    <AuthCard
      title={RECOVERY_TITLE}
      headingRef={heading}
      description="If you lose your phone, each of these codes lets you log in once instead of a code from the app. Keep them somewhere safe, such as a password manager: this is the only time they are shown."
    >
      <div className="grid gap-5">
        <ol aria-label="Recovery codes" className="grid gap-1 rounded-md bg-muted px-4 py-3 font-mono text-sm sm:grid-cols-2">
          {codes.map((c) => (
            <li key={c} className="break-all">
              {c}
            </li>
          ))}
        </ol>
        <Button className="w-full" onClick={onContinue}>
          I have saved them, continue
        </Button>
      </div>
    </AuthCard>
  )
}
