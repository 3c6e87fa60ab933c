import { useSyncExternalStore } from 'react'
import type { ExternalToast } from 'sonner'

/**
 * Toasts, with sonner loaded on the first one: most visits (the public
 * pages above all) never show a toast, so they never download it. Sonner's
 * Toaster replays toasts raised before it mounted, so none is lost while
 * the chunk loads.
 */
type Sonner = typeof import('sonner')

let sonner: Promise<Sonner> | undefined
const listeners = new Set<() => void>()

function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner')
    listeners.forEach((notify) => notify())
  }
  return sonner
}

export const toast = {
  success: (message: string, options?: ExternalToast) => void loadSonner().then((s) => s.toast.success(message, options)),
  error: (message: string, options?: ExternalToast) => void loadSonner().then((s) => s.toast.error(message, options)),
}

/** True once any toast was raised: time to mount the Toaster. */
export function useToastRequested(): boolean {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify)
      return () => listeners.delete(notify)
    },
    () => sonner !== undefined,
    // No toast was raised before a page is hydrated.
    () => false,
  )
}

export const loadToaster = () => loadSonner().then((s) => ({ default: s.Toaster }))
