import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

export function deleteAccount(password: string) {
  return unwrap(api.POST('/api/account/delete', { body: { password } }))
}

/** Deleting ends the sign-in: the caller forgets the session on success. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount })
}
