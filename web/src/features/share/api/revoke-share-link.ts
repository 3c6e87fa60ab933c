import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

export async function revokeShareLink(id: string) {
  const { link } = await unwrap(api.POST('/api/shares/{id}/revoke', { params: { path: { id } } }))
  return link
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeShareLink,
    // A session's list and the list of every link both show it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.share.all }),
  })
}
