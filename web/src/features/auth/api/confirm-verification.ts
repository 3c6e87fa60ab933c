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
    // The signed-in user's emailVerified flag has changed (if this browser is signed in).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.auth.me }),
  })
}
