import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'

export type CheckoutInput = RequestBody<'/api/create-checkout-session', 'post'>

export function createCheckoutSession(body: CheckoutInput) {
  return unwrap(api.POST('/api/create-checkout-session', { body }))
}

/** Starts a purchase; the caller sends the browser to the answered url. */
export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession })
}
