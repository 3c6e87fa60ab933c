import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { RequestBody } from '@/lib/api-types'

export type NewShareLink = RequestBody<'/api/shares', 'post'>
export type ShareExpiry = NewShareLink['expiry']

export function createShareLink(body: NewShareLink) {
  return unwrap(api.POST('/api/shares', { body }))
}

export function useCreateShareLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createShareLink,
    // A session's list and the list of every link both show it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.all }),
  })
}
