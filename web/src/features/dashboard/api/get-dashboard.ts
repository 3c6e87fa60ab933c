import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type Dashboard = ResponseBody<'/api/dashboard', 'get'>
export type RecentSession = Dashboard['recentSessions'][number]

export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return unwrap(api.GET('/api/dashboard', { signal }))
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.dashboard,
    queryFn: ({ signal }) => getDashboard(signal),
    // Stats change in the background as answers are scored: read fresh on every visit.
    staleTime: 0,
  })
}

/**
 * pollEvery says, from the dashboard as last read, how often to read it
 * again in milliseconds (while a payment is being confirmed), or false.
 */
export function useDashboard(opts: { enabled?: boolean; pollEvery?: (data: Dashboard | undefined) => number | false } = {}) {
  const { pollEvery } = opts
  return useQuery({
    ...dashboardQueryOptions(),
    enabled: opts.enabled ?? true,
    refetchInterval: pollEvery ? (query) => pollEvery(query.state.data) : false,
  })
}
