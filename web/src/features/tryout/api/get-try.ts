import { queryOptions, useQuery } from '@tanstack/react-query'
import { IN_PROGRESS } from '@/components/answer/answer'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { Try } from './record-try'

export function getTry(token: string, signal?: AbortSignal): Promise<Try> {
  return unwrap(api.GET('/api/tryout/tries/{token}', { params: { path: { token } }, signal }))
}

/** How often a try waiting for its feedback is asked about again. */
const POLL_MS = 1000

export function tryQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.tryout.try(token),
    queryFn: ({ signal }) => getTry(token, signal),
    refetchInterval: (query) => (query.state.data && IN_PROGRESS.includes(query.state.data.status) ? POLL_MS : false),
  })
}

/** A try's progress, asked again each second until it is scored. */
export function useTry(token: string | null) {
  return useQuery({ ...tryQueryOptions(token ?? ''), enabled: token !== null })
}
