import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type ConfirmVerificationInput = RequestBody<'/api/auth/verification/confirm', 'post'>

export function confirmVerification(body: ConfirmVerificationInput) {
  return unwrap(api.POST('/api/auth/verification/confirm', { body }))
}

export function useConfirmVerification() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: confirmVerification,
    // The browser may now be signed in, or its user's emailVerified flag
    // has changed. Awaited: the page goes on to the dashboard only once the
    // signed-in user is known, or the dashboard's guard, still holding the
    // signed-out answer, sends the student to log in (seen on a loaded
    // machine). When the confirmation signed the browser in, a check still
    // in flight went with the sign-in it replaced, and the server may answer
    // it after the replacement (401): it is cancelled first, since a
    // refetch would only wait for it, and asked again with the new sign-in.
    onSuccess: async (answer) => {
      if (answer.signedIn) await queryClient.cancelQueries({ queryKey: queryKeys.auth.me })
      await queryClient.invalidateQueries({ queryKey: queryKeys.auth.me })
    },
  })
}
