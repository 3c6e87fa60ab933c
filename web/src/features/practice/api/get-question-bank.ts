import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type BankQuestion = ResponseBody<'/api/questions', 'get'>['questions'][number]

/** Every question in the bank, all professions: the custom builder searches them all. */
export async function getQuestionBank(signal?: AbortSignal): Promise<BankQuestion[]> {
  const body = await unwrap(api.GET('/api/questions', { signal }))
  return body.questions
}

export function questionBankQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.questionBank,
    queryFn: ({ signal }) => getQuestionBank(signal),
    staleTime: 5 * 60_000,
  })
}

export function useQuestionBank() {
  return useQuery(questionBankQueryOptions())
}
