import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { meQueryKey } from './get-me'

export type LoginInput = RequestBody<'/api/auth/login', 'post'>

export function login(body: LoginInput) {
  return unwrap(api.POST('/api/auth/login', { body }))
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      // A new session: forget anything cached for a previous user.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
      queryClient.setQueryData(meQueryKey, data.user)
    },
  })
}
