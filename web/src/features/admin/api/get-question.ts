import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { Question } from './list-questions'

export function getQuestion(id: string, signal?: AbortSignal): Promise<Question> {
  return unwrap(api.GET('/api/admin/questions/{id}', { params: { path: { id } }, signal }))
}

export function questionQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.admin.questions.detail(id),
    queryFn: ({ signal }) => getQuestion(id, signal),
  })
}

/**
 * One question, fresh from the server. `listed` is the row the admin clicked:
 * it shows at once while the current version loads.
 */
export function useQuestion(id: string, listed?: Question) {
  return useQuery({ ...questionQueryOptions(id), placeholderData: listed })
}
