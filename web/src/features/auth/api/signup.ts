import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { meQueryKey } from './get-me'

export type SignupInput = RequestBody<'/api/auth/signup', 'post'>

export function signup(body: SignupInput) {
  return unwrap(api.POST('/api/auth/signup', { body }))
}

export function useSignup() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signup,
    onSuccess: (data) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
      queryClient.setQueryData(meQueryKey, data.user)
    },
  })
}
