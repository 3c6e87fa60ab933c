import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type User = NonNullable<ResponseBody<'/api/auth/me', 'get'>['user']>

/** The signed-in user, or null when nobody is signed in. Errors throw. */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  const body = await unwrap(api.GET('/api/auth/me', { signal }))
  return body.user ?? null
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.auth.me,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 60_000,
    retry: (failures, err) => !(err instanceof ApiError && err.status > 0 && err.status < 500) && failures < 2,
  })
}

/** Auth state: pending while loading, then a user or null. */
export function useMe() {
  return useQuery(meQueryOptions())
}
