import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { QueryParams, ResponseBody } from '@/lib/api-types'

export type HistoryPage = ResponseBody<'/api/practice/history', 'get'>
export type HistoryQuery = QueryParams<'/api/practice/history', 'get'>

export function listHistory(query: HistoryQuery, signal?: AbortSignal): Promise<HistoryPage> {
  return unwrap(api.GET('/api/practice/history', { params: { query }, signal }))
}

export function historyQueryOptions(query: HistoryQuery) {
  return queryOptions({
    queryKey: queryKeys.history.list(query),
    queryFn: ({ signal }) => listHistory(query, signal),
    // Keep the last page on screen while the next filter or page loads.
    placeholderData: keepPreviousData,
  })
}

export function useHistory(query: HistoryQuery) {
  return useQuery(historyQueryOptions(query))
}
