import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type PaymentsMode = ResponseBody<'/api/payments/mode', 'get'>['mode']

export function paymentsModeQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.paymentsMode,
    queryFn: ({ signal }) => unwrap(api.GET('/api/payments/mode', { signal })),
    // The mode changes only with a restart.
    staleTime: Infinity,
    gcTime: Infinity,
  })
}

/** How this server sells passes; undefined until known. */
export function usePaymentsMode(): PaymentsMode | undefined {
  return useQuery(paymentsModeQueryOptions()).data?.mode
}
