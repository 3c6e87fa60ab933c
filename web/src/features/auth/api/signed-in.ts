import { useQueryClient } from '@tanstack/react-query'
import { meQueryKey, type User } from './get-me'

/** Records a new sign-in: anything cached for a previous user is forgotten. */
export function useSignedIn() {
  const queryClient = useQueryClient()
  return (user: User) => {
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'professions' })
    queryClient.setQueryData(meQueryKey, user)
  }
}
