import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { useSignedIn } from './signed-in'

export type LoginInput = RequestBody<'/api/auth/login', 'post'>

export function login(body: LoginInput) {
  return unwrap(api.POST('/api/auth/login', { body }))
}

/**
 * Logs in. An admin's password alone signs nothing in: when the answer asks
 * for a second factor, the browser stays signed out until that step.
 */
export function useLogin() {
  const queryClient = useQueryClient()
  const signedIn = useSignedIn()
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      if (data.secondFactor) queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
      else signedIn(data.user)
    },
  })
}
