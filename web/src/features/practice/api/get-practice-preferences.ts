import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type PracticePreferences = ResponseBody<'/api/practice/preferences', 'get'>['preferences']
export type Hearing = PracticePreferences['hearing']

export const preferencesQueryOptions = queryOptions({
  queryKey: queryKeys.practice.preferences,
  queryFn: async ({ signal }) => (await unwrap(api.GET('/api/practice/preferences', { signal }))).preferences,
})

/** How the student chose to be heard (the server's default until they choose), and whether captions show. */
export function usePracticePreferences() {
  return useQuery(preferencesQueryOptions)
}
