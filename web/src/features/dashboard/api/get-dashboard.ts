import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'

export type Dashboard = ResponseBody<'/api/dashboard', 'get'>
export type RecentSession = Dashboard['recentSessions'][number]

export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return unwrap(api.GET('/api/dashboard', { signal }))
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: ['dashboard'] as const,
    queryFn: ({ signal }) => getDashboard(signal),
    // Stats change in the background as answers are scored: read fresh on every visit.
    staleTime: 0,
  })
}

/** refetchInterval polls, in milliseconds (while a payment is being confirmed). */
export function useDashboard(opts: { enabled?: boolean; refetchInterval?: number | false } = {}) {
  return useQuery({ ...dashboardQueryOptions(), enabled: opts.enabled ?? true, refetchInterval: opts.refetchInterval ?? false })
}
