import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type FormatPreset = ResponseBody<'/api/practice/formats', 'get'>['presets'][number]
export type Timings = FormatPreset['timings']

export const formatsQueryOptions = queryOptions({
  queryKey: queryKeys.practice.formats,
  queryFn: async ({ signal }) => (await unwrap(api.GET('/api/practice/formats', { signal }))).presets,
  staleTime: Infinity,
})

/** The interview formats with their default timings and counts, as the server sets them. */
export function useFormats() {
  return useQuery(formatsQueryOptions)
}
