import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { QueryParams, ResponseBody } from '@/lib/api-types'

export type Progress = ResponseBody<'/api/practice/progress', 'get'>
export type ProgressQuery = QueryParams<'/api/practice/progress', 'get'>
export type TrendPoint = Progress['points'][number]
export type Subtag = NonNullable<ProgressQuery['subtag']>

export function useProgress(query: ProgressQuery) {
  return useQuery({
    queryKey: queryKeys.progress.of(query),
    queryFn: ({ signal }) => unwrap(api.GET('/api/practice/progress', { params: { query }, signal })),
    // Keep the last figures on screen while another question type loads.
    placeholderData: keepPreviousData,
  })
}
