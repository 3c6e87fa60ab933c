import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

export type ResendVerificationInput = RequestBody<'/api/auth/verification/resend', 'post'>

export function resendVerification(body: ResendVerificationInput) {
  return unwrap(api.POST('/api/auth/verification/resend', { body }))
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification })
}
