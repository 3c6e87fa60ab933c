import { matchQuery, useQueryClient, type Query } from '@tanstack/react-query'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'
import type { User } from './get-me'

/** Whatever a previous user had cached: all but the professions, which are everyone's. */
export const cachedForAUser = (query: Query) => !matchQuery({ queryKey: queryKeys.professions }, query)

/** Records a new sign-in: anything cached for a previous user is forgotten. */
export function useSignedIn() {
  const queryClient = useQueryClient()
  return (user: User) => {
    queryClient.removeQueries({ predicate: cachedForAUser })
    queryClient.setQueryData(queryKeys.auth.me, user)
  }
}

/**
 * Takes a login's answer (password or Firebase). An admin's first step
 * signs nothing in: when the answer asks for a second factor, the browser
 * stays signed out until that step.
 */
export function useLoginAnswer() {
  const queryClient = useQueryClient()
  const signedIn = useSignedIn()
  return (answer: ResponseBody<'/api/auth/login', 'post'>) => {
    if (answer.secondFactor) queryClient.removeQueries({ predicate: cachedForAUser })
    else signedIn(answer.user)
  }
}
