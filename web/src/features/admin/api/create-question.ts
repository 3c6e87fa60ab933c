import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type QuestionInput = RequestBody<'/api/admin/questions', 'post'>

export function createQuestion(body: QuestionInput) {
  return unwrap(api.POST('/api/admin/questions', { body }))
}

export function useCreateQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createQuestion,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.questions.all }),
  })
}
