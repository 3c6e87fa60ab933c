import { useEffect } from 'react'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { loadFirebaseSdk, type useFirebaseSignIn } from '../api/firebase-sign-in'
import { type FirebaseConfig, useFirebaseConfig } from '../api/get-firebase-config'

export const FIREBASE_BUTTON = 'Continue with Google'
export const FIREBASE_PENDING = 'Signing in with Google...'

/**
 * The sign-in through the operator's Firebase project, offered only when
 * the server has one (FIREBASE_PROJECT_ID). Below the password form, after
 * an "or" rule; its progress and errors have a status line of their own.
 */
export function FirebaseSignIn({
  mutation,
  disabled,
  onClick,
}: {
  mutation: ReturnType<typeof useFirebaseSignIn>
  disabled: boolean
  onClick: (config: FirebaseConfig) => void
}) {
  const firebase = useFirebaseConfig().data
  const enabled = firebase?.enabled === true
  useEffect(() => {
    if (enabled) void loadFirebaseSdk()
  }, [enabled])
  if (!firebase || !enabled) return null
  return (
    <div className="mt-2 grid gap-4">
      <div className="flex items-center gap-3 text-sm text-muted-foreground">
        <span className="h-px flex-1 bg-border" aria-hidden="true" />
        or
        <span className="h-px flex-1 bg-border" aria-hidden="true" />
      </div>
      <Button variant="outline" className="w-full" disabled={disabled || mutation.isPending} onClick={() => onClick(firebase)}>
        {FIREBASE_BUTTON}
      </Button>
      <FormStatus status={mutation.isPending ? FIREBASE_PENDING : null} error={mutation.isError ? errorMessage(mutation.error) : null} />
    </div>
  )
}

