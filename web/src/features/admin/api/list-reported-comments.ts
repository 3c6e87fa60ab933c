import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { ResponseBody } from '@/lib/api-types'

export type ReportedComment = ResponseBody<'/api/admin/reported-comments', 'get'>['comments'][number]

export async function listReportedComments(signal?: AbortSignal): Promise<ReportedComment[]> {
  const body = await unwrap(api.GET('/api/admin/reported-comments', { signal }))
  return body.comments
}

export function reportedCommentsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.admin.reportedComments,
    queryFn: ({ signal }) => listReportedComments(signal),
  })
}

export function useReportedComments() {
  return useQuery(reportedCommentsQueryOptions())
}
