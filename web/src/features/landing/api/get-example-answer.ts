import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { preloaded } from '@/lib/preloaded'
import { queryKeys } from '@/lib/query-keys'

export type ExampleAnswer = ResponseBody<'/api/tryout/examples/{slug}', 'get'>

export async function getExampleAnswer(slug: string, signal?: AbortSignal): Promise<ExampleAnswer> {
  return unwrap(api.GET('/api/tryout/examples/{slug}', { params: { path: { slug } }, signal }))
}

export function exampleAnswerQueryOptions(slug: string) {
  const path = `/api/tryout/examples/${slug}`
  return queryOptions({
    queryKey: queryKeys.exampleAnswer(slug),
    queryFn: ({ signal }) => getExampleAnswer(slug, signal),
    // The server writes it into the landing page, so the first render has it.
    initialData: () => preloaded<ExampleAnswer>(path),
    // Scored when the server starts: it changes only with a deploy.
    staleTime: Infinity,
  })
}

/** The profession's example answer with the feedback the rubric engine gives it. */
export function useExampleAnswer(slug: string) {
  return useQuery(exampleAnswerQueryOptions(slug))
}
