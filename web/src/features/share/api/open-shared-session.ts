import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type Review = ResponseBody<'/api/review', 'get'>
export type ReviewerComment = Review['comments'][number]

export function openSharedSession(token: string, signal?: AbortSignal): Promise<Review> {
  return unwrap(api.GET('/api/review', { params: { query: { token } }, signal }))
}

export function reviewQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.share.review(token),
    queryFn: ({ signal }) => openSharedSession(token, signal),
    // A page opened without a token has no link to ask about.
    enabled: token !== '',
  })
}

export function useReview(token: string) {
  return useQuery(reviewQueryOptions(token))
}
