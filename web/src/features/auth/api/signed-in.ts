import { useQueryClient } from '@tanstack/react-query'
import type { ResponseBody } from '@/lib/api-types'
import { meQueryKey, type User } from './get-me'

/** Records a new sign-in: anything cached for a previous user is forgotten. */
export function useSignedIn() {
  const queryClient = useQueryClient()
  return (user: User) => {
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
    queryClient.setQueryData(meQueryKey, user)
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
    if (answer.secondFactor) queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
    else signedIn(answer.user)
  }
}
