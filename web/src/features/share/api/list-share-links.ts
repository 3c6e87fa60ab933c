import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type ShareLink = ResponseBody<'/api/shares', 'get'>['links'][number]

export async function listShareLinks(savedSessionId: string | undefined, signal?: AbortSignal): Promise<ShareLink[]> {
  const body = await unwrap(api.GET('/api/shares', { params: { query: { savedSessionId } }, signal }))
  return body.links
}

/** savedSessionId narrows the links to one saved session; without it, every link. */
export function shareLinksQueryOptions(savedSessionId?: string) {
  return queryOptions({
    queryKey: queryKeys.share.links(savedSessionId),
    queryFn: ({ signal }) => listShareLinks(savedSessionId, signal),
  })
}

export function useShareLinks(savedSessionId?: string) {
  return useQuery(shareLinksQueryOptions(savedSessionId))
}
