import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type Comparison = ResponseBody<'/api/practice/sessions/{id}/earlier-attempts', 'get'>
export type Attempt = Comparison['items'][number]['attempts'][number]

export function earlierAttemptsQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: queryKeys.practice.earlierAttempts(sessionId),
    queryFn: ({ signal }) => unwrap(api.GET('/api/practice/sessions/{id}/earlier-attempts', { params: { path: { id: sessionId } }, signal })),
  })
}

/**
 * The student's earlier answers to each of the session's questions, by the
 * item they compare with; asked for once the session's answers are scored.
 */
export function useEarlierAttempts(sessionId: string | undefined, ready: boolean): Map<string, Attempt[]> {
  const { data } = useQuery({ ...earlierAttemptsQueryOptions(sessionId ?? ''), enabled: !!sessionId && ready })
  return new Map((data?.items ?? []).map((it) => [it.itemId, it.attempts]))
}
