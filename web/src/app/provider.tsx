import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { useEffect, useState, type ReactNode } from 'react'
import { Toaster } from 'sonner'
import { meQueryKey } from '@/features/auth/api/get-me'
import { setUnauthorizedHandler } from '@/lib/api-client'
import { AppErrorBoundary } from './error-boundary'
import { createQueryClient } from './query-client'

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient())
  // A 401 from any API call means the session ended (expired, logged out elsewhere).
  useEffect(() => {
    setUnauthorizedHandler(() => client.setQueryData(meQueryKey, null))
    return () => setUnauthorizedHandler(null)
  }, [client])
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={client}>
        {children}
        {/* Bottom right: the sticky header's links and menu are at the top (toasts there covered them). */}
        <Toaster position="bottom-right" richColors duration={4000} visibleToasts={3} closeButton />
      </QueryClientProvider>
    </AppErrorBoundary>
  )
}
