import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { preloaded } from '@/lib/preloaded'
import { queryKeys } from '@/lib/query-keys'

export type SitePage = ResponseBody<'/api/site/pages/{profession}/{page}', 'get'>
export type SitePageKey = SitePage['key']

export async function getSitePage(profession: string, page: SitePageKey, signal?: AbortSignal): Promise<SitePage> {
  return unwrap(api.GET('/api/site/pages/{profession}/{page}', { params: { path: { profession, page } }, signal }))
}

export function sitePageQueryOptions(profession: string, page: SitePageKey) {
  return queryOptions({
    queryKey: queryKeys.sitePage(profession, page),
    queryFn: ({ signal }) => getSitePage(profession, page, signal),
    // The server writes a public page's own words into it.
    initialData: () => preloaded<SitePage>(`/api/site/pages/${profession}/${page}`),
    // The words change only with a deploy.
    staleTime: Infinity,
  })
}

export function useSitePage(profession: string, page: SitePageKey) {
  return useQuery(sitePageQueryOptions(profession, page))
}
