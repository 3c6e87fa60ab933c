import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { RequestBody } from '@/lib/api-types'

export type NewShareLink = RequestBody<'/api/shares', 'post'>
export type ShareExpiry = NewShareLink['expiry']

export function createShareLink(body: NewShareLink) {
  return unwrap(api.POST('/api/shares', { body }))
}

export function useCreateShareLink(savedSessionId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.links(savedSessionId) }),
  })
}
