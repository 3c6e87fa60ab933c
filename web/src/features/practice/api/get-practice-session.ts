import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type PracticeSession = ResponseBody<'/api/practice/sessions/{id}', 'get'>['session']
export type PracticeItem = PracticeSession['items'][number]

/**
 * How often the summary asks for news while answers are being processed.
 * The last answer is usually ready well under a second after it ends, so a
 * slower poll would be most of the student's wait.
 */
export const PROCESSING_POLL_MS = 300


export async function getPracticeSession(id: string, signal?: AbortSignal): Promise<PracticeSession> {
  const body = await unwrap(api.GET('/api/practice/sessions/{id}', { params: { path: { id } }, signal }))
  return body.session
}

/** A session; with `poll`, refetched every PROCESSING_POLL_MS while any answer is still processing. */
export function practiceSessionQueryOptions(id: string, poll = false) {
  return queryOptions({
    queryKey: queryKeys.practice.session(id),
    queryFn: ({ signal }) => getPracticeSession(id, signal),
    refetchInterval: poll ? (query) => (query.state.data?.processing ? PROCESSING_POLL_MS : false) : false,
  })
}

/**
 * `poll` refetches while answers are processing; `live: false` loads the
 * session once and never refetches it in the background (the recording
 * page keeps its own state once it has the questions).
 */
export function usePracticeSession(id: string, opts: { poll?: boolean; live?: boolean } = {}) {
  const live = opts.live ?? true
  return useQuery({ ...practiceSessionQueryOptions(id, opts.poll), staleTime: live ? undefined : Infinity, refetchOnWindowFocus: live })
}
