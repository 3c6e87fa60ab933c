import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function reportShareComment(id: string) {
  const { comment } = await unwrap(api.POST('/api/shares/comments/{id}/report', { params: { path: { id } } }))
  return comment
}

export function useReportShareComment(savedSessionId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: reportShareComment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.comments(savedSessionId) }),
  })
}
