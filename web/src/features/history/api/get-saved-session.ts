import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type SavedSession = ResponseBody<'/api/practice/saved/{id}', 'get'>['saved']
export type SavedItem = SavedSession['items'][number]

export async function getSavedSession(id: string, signal?: AbortSignal): Promise<SavedSession> {
  const body = await unwrap(api.GET('/api/practice/saved/{id}', { params: { path: { id } }, signal }))
  return body.saved
}

export function savedSessionQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.practice.saved.detail(id),
    queryFn: ({ signal }) => getSavedSession(id, signal),
  })
}

export function useSavedSession(id: string) {
  return useQuery(savedSessionQueryOptions(id))
}
