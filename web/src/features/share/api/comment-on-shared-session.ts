import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { RequestBody } from '@/lib/api-types'

export type NewComment = RequestBody<'/api/review/comments', 'post'>

export async function commentOnSharedSession({ token, ...body }: NewComment & { token: string }) {
  const { comment } = await unwrap(api.POST('/api/review/comments', { params: { query: { token } }, body }))
  return comment
}

export function useCommentOnSharedSession(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: commentOnSharedSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.review(token) }),
  })
}
