import { matchQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { cachedForAUser } from './signed-in'

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
    queryClient.removeQueries({ predicate: (q) => cachedForAUser(q) && !matchQuery({ queryKey: queryKeys.auth.all }, q) })
    queryClient.setQueryData(queryKeys.auth.me, null)
  }, [queryClient])
}
