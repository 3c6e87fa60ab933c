import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

export function paySimulatedCheckout(session: string) {
  return unwrap(api.POST('/api/dev-checkout/pay', { body: { session } }))
}

/** The development checkout's Pay button (no money moves). */
export function usePaySimulatedCheckout() {
  return useMutation({ mutationFn: paySimulatedCheckout })
}
