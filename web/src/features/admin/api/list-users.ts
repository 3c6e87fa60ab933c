import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { QueryParams, ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type UserList = ResponseBody<'/api/admin/users', 'get'>
export type UserSummary = UserList['users'][number]
export type UsersQuery = QueryParams<'/api/admin/users', 'get'>
export type UserSort = NonNullable<UsersQuery['sort']>
export type SortOrder = NonNullable<UsersQuery['order']>

export function listUsers(query: UsersQuery, signal?: AbortSignal): Promise<UserList> {
  return unwrap(api.GET('/api/admin/users', { params: { query }, signal }))
}

export function usersQueryOptions(query: UsersQuery) {
  return queryOptions({
    queryKey: queryKeys.admin.users.list(query),
    queryFn: ({ signal }) => listUsers(query, signal),
    // Keep showing the last page while the next search, sort or page loads,
    // so the table does not flash empty.
    placeholderData: keepPreviousData,
  })
}

export function useUsers(query: UsersQuery) {
  return useQuery(usersQueryOptions(query))
}
