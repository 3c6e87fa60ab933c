import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { useLoginAnswer } from './signed-in'

export type LoginInput = RequestBody<'/api/auth/login', 'post'>

export function login(body: LoginInput) {
  return unwrap(api.POST('/api/auth/login', { body }))
}

/**
 * Logs in. An admin's password alone signs nothing in: when the answer asks
 * for a second factor, the browser stays signed out until that step.
 */
export function useLogin() {
  return useMutation({ mutationFn: login, onSuccess: useLoginAnswer() })
}
