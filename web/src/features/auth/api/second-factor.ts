import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { useSignedIn } from './signed-in'

/** A new authenticator secret for an admin setting up their second factor. */
export function useStartEnrolment() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/auth/second-factor/enrolment')) })
}

/** Turns the authenticator on with its first code; answers the recovery codes, shown once. */
export function useConfirmEnrolment() {
  const signedIn = useSignedIn()
  return useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/api/auth/second-factor/enrolment/confirm', { body: { code } })),
    onSuccess: (data) => signedIn(data.user),
  })
}

/** Finishes an admin's login with an authenticator or recovery code. */
export function usePassSecondFactor() {
  const signedIn = useSignedIn()
  return useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/api/auth/second-factor', { body: { code } })),
    onSuccess: (data) => signedIn(data.user),
  })
}
