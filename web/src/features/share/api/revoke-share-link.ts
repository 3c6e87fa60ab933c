import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function revokeShareLink(id: string) {
  const { link } = await unwrap(api.POST('/api/shares/{id}/revoke', { params: { path: { id } } }))
  return link
}

export function useRevokeShareLink(savedSessionId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.links(savedSessionId) }),
  })
}
