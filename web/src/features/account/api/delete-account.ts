import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

/** What confirms a deletion: the password, or a fresh sign-in's ID token for an account without one. */
export type DeletionProof = { password: string } | { freshSignIn: () => Promise<string> }

export async function deleteAccount(proof: DeletionProof) {
  const body = 'password' in proof ? { password: proof.password } : { idToken: await proof.freshSignIn() }
  return unwrap(api.POST('/api/account/delete', { body }))
}

/** Deleting ends the sign-in: the caller forgets the session on success. */
export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount })
}
