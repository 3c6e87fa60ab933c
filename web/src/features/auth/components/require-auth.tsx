import type { ReactNode } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { useMe } from '../api/get-me'

export const AUTH_LOADING = 'Loading...'

/**
 * Guards signed-in routes: "Loading..." while auth state loads, then either
 * the page or a redirect to /login that carries the requested path as `from`
 * state and replaces the history entry.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const me = useMe()
  const location = useLocation()

  if (me.isPending) return <PageStatus>{AUTH_LOADING}</PageStatus>
  // A failed background refresh keeps the user it already had: wiping the
  // page would throw away a recording in progress.
  if (me.isError && me.data === undefined) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <LoadError title="We couldn't check whether you're signed in." onRetry={() => void me.refetch()} />
      </div>
    )
  }
  if (!me.data) {
    const from = `${location.pathname}${location.search}${location.hash}`
    return <Navigate to="/login" replace state={{ from }} />
  }
  return children ?? <Outlet />
}

/**
 * Guards admin pages (spec §6): signed-out visitors go to /login (via
 * RequireAuth), non-admins and failed access checks go to /.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const me = useMe()
  const location = useLocation()
  if (me.isPending) return <PageStatus>{AUTH_LOADING}</PageStatus>
  if (me.isError && me.data === undefined) return <Navigate to="/" replace />
  if (!me.data) {
    const from = `${location.pathname}${location.search}${location.hash}`
    return <Navigate to="/login" replace state={{ from }} />
  }
  if (me.data.role !== 'admin') return <Navigate to="/" replace />
  return children ?? <Outlet />
}
