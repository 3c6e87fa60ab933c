import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

export type ResetPasswordInput = RequestBody<'/api/auth/password/reset', 'post'>

export function resetPassword(body: ResetPasswordInput) {
  return unwrap(api.POST('/api/auth/password/reset', { body }))
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword })
}
