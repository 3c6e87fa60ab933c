import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

type Formats = ResponseBody<'/api/practice/formats', 'get'>
export type FormatPreset = Formats['presets'][number]
export type Timings = FormatPreset['timings']
export type SpeechInfo = Formats['speech']

export const formatsQueryOptions = queryOptions({
  queryKey: queryKeys.practice.formats,
  queryFn: async ({ signal }) => unwrap(api.GET('/api/practice/formats', { signal })),
  staleTime: Infinity,
})

/** The interview formats with their default timings and counts, as the server sets them. */
export function useFormats() {
  return useQuery({ ...formatsQueryOptions, select: (f) => f.presets })
}

/** The server's speech engine: the local one mishears more, and the student is told so before recording. */
export function useSpeechInfo() {
  return useQuery({ ...formatsQueryOptions, select: (f) => f.speech })
}
