import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

export type ForgotPasswordInput = RequestBody<'/api/auth/password/forgot', 'post'>

export function forgotPassword(body: ForgotPasswordInput) {
  return unwrap(api.POST('/api/auth/password/forgot', { body }))
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword })
}
