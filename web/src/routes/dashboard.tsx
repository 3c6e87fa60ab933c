import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router'
import { toast } from '@/lib/toast'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { AccountData } from '@/features/account/components/account-data'
import { useFreshFirebaseSignIn } from '@/features/auth/api/firebase-sign-in'
import { meQueryOptions } from '@/features/auth/api/get-me'
import { useClearSession } from '@/features/auth/api/logout'
import { VerifyEmailNotice } from '@/features/auth/components/verify-email-notice'
import { CheckoutReturn } from '@/features/billing/components/checkout-return'
import { UpgradeButton } from '@/features/billing/components/upgrade-button'
import { type Dashboard, useDashboard } from '@/features/dashboard/api/get-dashboard'
import { useKeepRememberedTry } from '@/features/tryout/api/keep-try'
import { DashboardHome, EMAIL_CONFIRMED_WELCOME } from '@/features/dashboard/components/dashboard-home'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { errorMessage } from '@/lib/api-client'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { getLastProfession } from '@/lib/professions'

export const CHECKING_ACCESS = 'Checking access…'

/** When the Premium pass ends, while it is active. */
function paidUntil(d: Dashboard | undefined): string | null {
  return d?.access.status === 'paid_active' ? (d.access.subscriptionEndsAt ?? null) : null
}

/** How long until a usage pause ends, when there is one: the dashboard is read again then, and Start comes back. */
function untilPauseEnds(d: Dashboard | undefined): number | false {
  if (!d?.usagePause) return false
  return Math.max(1000, new Date(d.usagePause.endsAt).getTime() - Date.now())
}

/** The verification link signed the student in (see VerifyEmailConfirm). */
function welcomed(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'welcome' in state && state.welcome === true
}

/**
 * Whether this visit came from the verification link. The browser keeps a
 * page's history state through a reload, so the state is cleared once read:
 * the welcome stays for this visit, and a reload does not confirm the
 * email again.
 */
function useWelcome(): boolean {
  const location = useLocation()
  const navigate = useNavigate()
  const [welcome] = useState(() => welcomed(location.state))
  useEffect(() => {
    if (welcomed(location.state)) void navigate(location, { replace: true, state: null })
  }, [location, navigate])
  return welcome
}

export function DashboardRoute() {
  const location = useLocation()
  const [search] = useSearchParams()
  const checkout = search.get('checkout')
  const returning = checkout === 'success' || checkout === 'cancelled' ? checkout : null
  // Re-read the user on every visit so a freshly verified email unlocks the app.
  const me = useQuery({ ...meQueryOptions(), refetchOnMount: 'always' })
  // Access, stats and history only mean something once the email is verified.
  // Back from a payment: poll until Stripe's webhook has granted the pass.
  const dashboard = useDashboard({
    enabled: !!me.data?.emailVerified,
    pollEvery: (data) => (returning === 'success' && !paidUntil(data) ? 2000 : untilPauseEnds(data)),
  })
  // A question tried before signing up goes into the history now.
  useKeepRememberedTry(!!me.data?.emailVerified)
  const premiumUntil = paidUntil(dashboard.data)
  const slug = getLastProfession()
  const professionSlug = useProfessionSlug()
  const clearSession = useClearSession()
  const navigate = useNavigate()
  const freshSignIn = useFreshFirebaseSignIn()
  const welcome = useWelcome()

  async function onDeleted(message: string) {
    toast.success('Your account has been deleted.', { description: message, duration: 20_000 })
    // As at logout: leave the protected page first, then forget the user.
    await navigate('/', { flushSync: true })
    clearSession()
  }

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
    body = (
      <div className="grid gap-8">
        <DashboardHome
          name={me.data.name}
          dashboard={dashboard.data}
          setupSlug={slug}
          renderUpgrade={(label, emphasis) => (
            <UpgradeButton slug={professionSlug} label={label} size={emphasis === 'primary' ? 'lg' : 'default'} variant={emphasis === 'primary' ? 'default' : 'outline'} />
          )}
          notice={
            returning ? (
              <CheckoutReturn state={returning} premiumUntil={premiumUntil} />
            ) : welcome ? (
              <Alert variant="success" role="status">
                <AlertDescription>{EMAIL_CONFIRMED_WELCOME}</AlertDescription>
              </Alert>
            ) : null
          }
        />
        <AccountData onDeleted={(message) => void onDeleted(message)} freshSignIn={freshSignIn} />
      </div>
    )
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <title>Dashboard · Whitecoat</title>
      {body}
    </div>
  )
}
