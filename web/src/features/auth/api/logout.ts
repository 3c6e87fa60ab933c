import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { api, unwrap } from '@/lib/api-client'
import { meQueryKey } from './get-me'

export function logout() {
  return unwrap(api.POST('/api/auth/logout'))
}

/**
 * The logout request. It does not touch the cache itself: the caller first
 * navigates away (so protected pages do not bounce to /login) and then calls
 * the function from useClearSession.
 */
export function useLogout() {
  return useMutation({ mutationFn: logout })
}

/** Forgets the signed-in user and everything cached for them. */
export function useClearSession() {
  const queryClient = useQueryClient()
  return useCallback(() => {
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' && q.queryKey[0] !== 'auth' })
    queryClient.setQueryData(meQueryKey, null)
  }, [queryClient])
}
