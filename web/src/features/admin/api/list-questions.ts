import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { QueryParams, ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type QuestionPage = ResponseBody<'/api/admin/questions', 'get'>
export type Question = QuestionPage['questions'][number]
export type QuestionsQuery = QueryParams<'/api/admin/questions', 'get'>

export function listQuestions(query: QuestionsQuery, signal?: AbortSignal): Promise<QuestionPage> {
  return unwrap(api.GET('/api/admin/questions', { params: { query }, signal }))
}

export function questionsQueryOptions(query: QuestionsQuery) {
  return queryOptions({
    queryKey: queryKeys.admin.questions.list(query),
    queryFn: ({ signal }) => listQuestions(query, signal),
    // Keep the current rows on screen while a new filter or page loads.
    placeholderData: keepPreviousData,
  })
}

export function useQuestions(query: QuestionsQuery) {
  return useQuery(questionsQueryOptions(query))
}
