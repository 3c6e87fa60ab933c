import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { ResponseBody } from '@/lib/api-types'
import { queryKeys } from '@/lib/query-keys'

export type FirebaseConfig = ResponseBody<'/api/auth/firebase/config', 'get'>

/**
 * Whether this server takes Firebase sign-ins, and the web SDK's public
 * settings. It does not change while the server runs; when it cannot be
 * read the page simply offers no Firebase button.
 */
export function useFirebaseConfig() {
  return useQuery({
    queryKey: queryKeys.auth.firebaseConfig,
    queryFn: ({ signal }) => unwrap(api.GET('/api/auth/firebase/config', { signal })),
    staleTime: Infinity,
    retry: false,
  })
}
