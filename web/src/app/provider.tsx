import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { setUnauthorizedHandler } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { loadToaster, useToastRequested } from '@/lib/toast'
import { AppErrorBoundary } from './error-boundary'
import { createQueryClient } from './query-client'

/**
 * Spec: toasts top-right. They sit below the sticky header (h-16, 4rem) so
 * they never cover its links, menu toggle or Logout.
 */
const TOAST_OFFSET = { top: 'calc(4rem + 12px)', right: 16 }

const Toaster = lazy(loadToaster)

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient())
  const toastRequested = useToastRequested()
  // A 401 from any API call means the session ended (expired, logged out elsewhere).
  useEffect(() => {
    setUnauthorizedHandler(() => client.setQueryData(queryKeys.auth.me, null))
    return () => setUnauthorizedHandler(null)
  }, [client])
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={client}>
        {children}
        {toastRequested ? (
          <Suspense fallback={null}>
            <Toaster position="top-right" offset={TOAST_OFFSET} mobileOffset={TOAST_OFFSET} richColors duration={4000} visibleToasts={3} closeButton />
          </Suspense>
        ) : null}
      </QueryClientProvider>
    </AppErrorBoundary>
  )
}
