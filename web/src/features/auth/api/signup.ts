import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { bindRememberedTry } from '@/lib/pending-try'

export type SignupInput = RequestBody<'/api/auth/signup', 'post'>

/**
 * Starts an account. The answer is the same whether or not the email is
 * registered, and it signs nobody in: the next step is in the inbox.
 */
export function signup(body: SignupInput) {
  return unwrap(api.POST('/api/auth/signup', { body }))
}

/** Starts an account; a try this browser remembered is now that account's to keep. */
export function useSignup() {
  return useMutation({ mutationFn: signup, onSuccess: (_answer, body) => bindRememberedTry(body.email) })
}
