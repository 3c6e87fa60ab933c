import { useEffect, useState } from 'react'

export type Settled = 'pending' | 'fulfilled' | 'rejected'

/** Where promise is: pending until it settles; null for no promise. */
export function useSettled(promise: Promise<unknown> | null): Settled | null {
  const [state, setState] = useState<{ of: Promise<unknown>; settled: Settled } | null>(null)
  useEffect(() => {
    if (!promise) return
    let live = true
    promise.then(
      () => live && setState({ of: promise, settled: 'fulfilled' }),
      () => live && setState({ of: promise, settled: 'rejected' }),
    )
    return () => {
      live = false
    }
  }, [promise])
  if (!promise) return null
  return state?.of === promise ? state.settled : 'pending'
}
