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
    // has changed. Not awaited: the page goes on as soon as the answer is
    // in, and the dashboard reads the user afresh anyway.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.auth.me }),
  })
}
