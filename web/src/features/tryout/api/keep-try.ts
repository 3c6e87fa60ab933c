import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { api, ApiError, unwrap } from '@/lib/api-client'
import { forgetRememberedTry, rememberedTryOf } from '@/lib/pending-try'
import { queryKeys } from '@/lib/query-keys'
import { toast } from '@/lib/toast'

export function keepTry(token: string) {
  return unwrap(api.POST('/api/tryout/tries/{token}/keep', { params: { path: { token } } }))
}

export const TRY_SAVED = 'The answer you tried before signing up is saved in your history.'

/**
 * Refusals after which a try is never kept by this account: its history is
 * locked (403), the try is gone (404: swept after 24 hours, or kept
 * already) or was never scored (409). Anything else may pass.
 */
const FINAL_REFUSALS = [403, 404, 409]

/**
 * Once the signed-in account is verified, saves the try this browser
 * remembered for it (see lib/pending-try) into its history, once; a try
 * that cannot be kept is forgotten quietly, and so is one remembered for
 * another account.
 */
export function useKeepRememberedTry(user: { email: string; emailVerified: boolean } | null | undefined) {
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
  const email = user?.emailVerified ? user.email : null
  useEffect(() => {
    if (!email || started.current) return
    const token = rememberedTryOf(email)
    if (!token) return
    started.current = true
    keep.mutate(token, {
      onSettled: (_data, err) => {
        if (!err || (err instanceof ApiError && FINAL_REFUSALS.includes(err.status))) forgetRememberedTry()
      },
    })
  }, [email, keep])
}
