import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type ShareComment = ResponseBody<'/api/shares/comments', 'get'>['comments'][number]

export async function listShareComments(savedSessionId: string, signal?: AbortSignal): Promise<ShareComment[]> {
  const body = await unwrap(api.GET('/api/shares/comments', { params: { query: { savedSessionId } }, signal }))
  return body.comments
}

export function shareCommentsQueryOptions(savedSessionId: string) {
  return queryOptions({
    queryKey: queryKeys.share.comments(savedSessionId),
    queryFn: ({ signal }) => listShareComments(savedSessionId, signal),
  })
}

export function useShareComments(savedSessionId: string) {
  return useQuery(shareCommentsQueryOptions(savedSessionId))
}
