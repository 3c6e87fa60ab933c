import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type Payment = ResponseBody<'/api/admin/users/{id}/payments', 'get'>['payments'][number]

export function listPayments(userId: string, signal?: AbortSignal) {
  return unwrap(api.GET('/api/admin/users/{id}/payments', { params: { path: { id: userId } }, signal }))
}

export function paymentsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: queryKeys.admin.payments(userId),
    queryFn: ({ signal }) => listPayments(userId, signal),
  })
}

/** A user's payments, for the admin's payments dialog (loaded when it opens). */
export function usePayments(userId: string, enabled: boolean) {
  return useQuery({ ...paymentsQueryOptions(userId), enabled })
}
