import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'

/** Sends a visitor's typed answer to the profession's default question. */
export function typeTry({ slug, text }: { slug: string; text: string }) {
  return unwrap(api.POST('/api/tryout/typed/{slug}', { params: { path: { slug } }, body: { text } }))
}

export function useTypeTry() {
  return useMutation({ mutationFn: typeTry })
}
