import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export function deleteQuestion(id: string) {
  return unwrap(api.DELETE('/api/admin/questions/{id}', { params: { path: { id } } }))
}

export function useDeleteQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteQuestion,
    onSuccess: (_data, id) => {
      // The detail would 404 if refetched; drop it rather than invalidate it.
      queryClient.removeQueries({ queryKey: queryKeys.admin.questions.detail(id) })
      return queryClient.invalidateQueries({ queryKey: queryKeys.admin.questions.all })
    },
  })
}
