import { useMutation, useQueryClient } from '@tanstack/react-query'
import { failures } from '@/api/failures'
import type { components } from '@/api/schema'
import { ApiError, api, unwrap } from '@/lib/api-client'
import type { RequestBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'
import type { Question } from './list-questions'

/** An edit: the question's fields and the version of it they were made on. */
export type QuestionEdit = RequestBody<'/api/admin/questions/{id}', 'put'>

type EditConflict = components['schemas']['EditConflict']

export function updateQuestion({ id, body }: { id: string; body: QuestionEdit }) {
  return unwrap(api.PUT('/api/admin/questions/{id}', { params: { path: { id } }, body }))
}

/**
 * The question as stored when the server refused an edit because someone
 * saved the question after the version the edit was made on; else null.
 */
export function editedMeanwhile(err: unknown): Question | null {
  if (!(err instanceof ApiError) || err.problem.type !== failures.questionEditedMeanwhile.type) return null
  return (err.problem as EditConflict).current
}

export function useUpdateQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateQuestion,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.questions.all }),
    onError: (err, { id }) => {
      // The refusal carries the question as stored: the dialog shows it
      // from now on, and the list catches up.
      const current = editedMeanwhile(err)
      if (!current) return
      queryClient.setQueryData(queryKeys.admin.questions.detail(id), current)
      return queryClient.invalidateQueries({ queryKey: queryKeys.admin.questions.lists })
    },
  })
}
