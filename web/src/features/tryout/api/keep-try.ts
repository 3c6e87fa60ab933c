import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { api, ApiError, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { toast } from '@/lib/toast'

/** Where the browser holds a scored try's token between the landing page and the verified account. */
const PENDING_TRY_KEY = 'whitecoat.pendingTry'

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null
  } catch {
    return null // storage disabled (privacy mode)
  }
}

/** Remembers a scored try to save once the visitor has a verified account. */
export function rememberTryToKeep(token: string) {
  storage()?.setItem(PENDING_TRY_KEY, token)
}

export function keepTry(token: string) {
  return unwrap(api.POST('/api/tryout/tries/{token}/keep', { params: { path: { token } } }))
}

export const TRY_SAVED = 'The answer you tried before signing up is saved in your history.'

/**
 * Once the account is verified (`ready`), saves the try this browser
 * remembered into its history, once; a try that is gone (swept after 24
 * hours, or kept already) is forgotten quietly.
 */
export function useKeepRememberedTry(ready: boolean) {
  const queryClient = useQueryClient()
  const keep = useMutation({
    mutationFn: keepTry,
    onSuccess: () => {
      toast.success(TRY_SAVED)
      void queryClient.invalidateQueries({ queryKey: queryKeys.history.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard })
    },
  })
  const started = useRef(false)
  useEffect(() => {
    const token = storage()?.getItem(PENDING_TRY_KEY)
    if (!ready || !token || started.current) return
    started.current = true
    keep.mutate(token, {
      onSettled: (_data, err) => {
        // Kept, or never to be: either way it is not tried again.
        if (!err || (err instanceof ApiError && (err.status === 404 || err.status === 409))) storage()?.removeItem(PENDING_TRY_KEY)
      },
    })
  }, [ready, keep])
}
