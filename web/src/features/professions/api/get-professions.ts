import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { preloaded } from '@/lib/preloaded'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type ProfessionList = ResponseBody<'/api/professions', 'get'>
export type Profession = ProfessionList['professions'][number]

export async function getProfessions(signal?: AbortSignal): Promise<ProfessionList> {
  return unwrap(api.GET('/api/professions', { signal }))
}

export function professionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.professions,
    queryFn: ({ signal }) => getProfessions(signal),
    // The server writes the list into every page, so the first render has it.
    initialData: () => preloaded<ProfessionList>('/api/professions'),
    // Profession copy changes only with a deploy.
    staleTime: Infinity,
    gcTime: Infinity,
  })
}

export function useProfessions() {
  return useQuery(professionsQueryOptions())
}

/** One profession's configuration from the list, or undefined while loading / unknown. */
export function useProfession(slug: string) {
  const query = useProfessions()
  const profession = query.data?.professions?.find((p) => p.slug === slug)
  return { ...query, profession }
}
