import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { preloaded } from '@/lib/preloaded'
import { queryKeys } from '@/lib/query-keys'

export type SiteFacts = ResponseBody<'/api/site', 'get'>

export function siteFactsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.siteFacts,
    queryFn: ({ signal }) => unwrap(api.GET('/api/site', { signal })),
    // The server writes them into every public page.
    initialData: () => preloaded<SiteFacts>('/api/site'),
    // The operator's facts change only with a restart.
    staleTime: Infinity,
    gcTime: Infinity,
  })
}

/**
 * The operator's facts (support address, company, contact) as the server
 * is configured. Until they load, `supportEmail` is undefined: callers
 * show their sentence without the address rather than a wrong one.
 */
export function useSiteFacts() {
  return useQuery(siteFactsQueryOptions()).data
}
