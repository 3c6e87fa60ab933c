import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { QuestionInput } from './create-question'

export function updateQuestion({ id, body }: { id: string; body: QuestionInput }) {
  return unwrap(api.PUT('/api/admin/questions/{id}', { params: { path: { id } }, body }))
}

export function useUpdateQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateQuestion,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.questions.all }),
  })
}
