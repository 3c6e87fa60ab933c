import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export function getTryLimits(signal?: AbortSignal) {
  return unwrap(api.GET('/api/tryout/limits', { signal }))
}

export function tryLimitsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.tryout.limits, queryFn: ({ signal }) => getTryLimits(signal), staleTime: Infinity })
}

/** How long a try may run and how long it is kept, as the server enforces them. */
export function useTryLimits() {
  return useQuery(tryLimitsQueryOptions())
}
