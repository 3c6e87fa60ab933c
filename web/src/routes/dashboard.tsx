import { useQuery } from '@tanstack/react-query'
import { Navigate, useLocation } from 'react-router'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { meQueryOptions } from '@/features/auth/api/get-me'
import { VerifyEmailNotice } from '@/features/auth/components/verify-email-notice'
import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { DashboardHome } from '@/features/dashboard/components/dashboard-home'
import { errorMessage } from '@/lib/api-client'
import { getLastProfession } from '@/lib/professions'

export const CHECKING_ACCESS = 'Checking access…'

export function DashboardRoute() {
  const location = useLocation()
  // Re-read the user on every visit so a freshly verified email unlocks the app.
  const me = useQuery({ ...meQueryOptions(), refetchOnMount: 'always' })
  // Access, stats and history only mean something once the email is verified.
  const dashboard = useDashboard({ enabled: !!me.data?.emailVerified })

  let body
  if (me.isPending || (me.isFetching && !me.isFetchedAfterMount)) {
    body = <PageStatus>{CHECKING_ACCESS}</PageStatus>
  } else if (me.isError) {
    body = <LoadError title="We couldn't load your account." onRetry={() => void me.refetch()} />
  } else if (!me.data) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
  } else if (!me.data.emailVerified) {
    body = <VerifyEmailNotice email={me.data.email} onRefresh={() => void me.refetch()} refreshing={me.isFetching} />
  } else if (dashboard.isPending) {
    body = <PageStatus>{CHECKING_ACCESS}</PageStatus>
  } else if (dashboard.isError) {
    body = <LoadError title={errorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
  } else {
    body = <DashboardHome name={me.data.name} dashboard={dashboard.data} setupSlug={getLastProfession()} />
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <title>Dashboard · Whitecoat</title>
      {body}
    </div>
  )
}
