import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { toast } from '@/lib/toast'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { AccountData } from '@/features/account/components/account-data'
import { HearingChoice } from '@/features/practice/components/hearing-choice'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
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

/** Back from checkout: its return address says how it ended (see test-checkout and the server's Stripe URLs). */
function checkoutReturn(search: string): 'success' | 'cancelled' | null {
  const value = new URLSearchParams(search).get('checkout')
  return value === 'success' || value === 'cancelled' ? value : null
}

/**
 * What brought the student here, read once: the verification link's
 * welcome (history state) or the end of a checkout (?checkout=).
 */
function useArrival() {
  const location = useLocation()
  const [arrival] = useState(() => ({ welcome: welcomed(location.state), checkout: checkoutReturn(location.search) }))
  return arrival
}

/**
 * The browser keeps the welcome and ?checkout= through a reload, so once
 * the dashboard has `shown` its notice the location forgets them: the
 * notice stays for this visit, and a reload neither welcomes again nor says
 * a checkout just ended. Not before: a student sent to log in first comes
 * back with them, and one who reloads while a payment is confirmed still
 * waits for it.
 */
function useForgetArrival(shown: boolean) {
  const location = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    const search = new URLSearchParams(location.search)
    if (!shown || (!welcomed(location.state) && !search.has('checkout'))) return
    search.delete('checkout')
    const rest = search.toString()
    void navigate({ pathname: location.pathname, search: rest ? `?${rest}` : '', hash: location.hash }, { replace: true, state: null })
  }, [shown, location, navigate])
}

export function DashboardRoute() {
  const location = useLocation()
  const { welcome, checkout: returning } = useArrival()
  // Re-read the user on every visit so a freshly verified email unlocks the app.
  const me = useQuery({ ...meQueryOptions(), refetchOnMount: 'always' })
  // Access, stats and history only mean something once the email is verified.
  // Back from a payment: poll until Stripe's webhook has granted the pass.
  const dashboard = useDashboard({
    enabled: !!me.data?.emailVerified,
    pollEvery: (data) => (returning === 'success' && !paidUntil(data) ? 2000 : untilPauseEnds(data)),
  })
  // A question tried before signing up goes into the history now.
  useKeepRememberedTry(me.data)
  const premiumUntil = paidUntil(dashboard.data)
  // A payment still being confirmed keeps its ?checkout=success: a reload then still waits for the pass.
  useForgetArrival(dashboard.isSuccess && !!me.data?.emailVerified && (returning !== 'success' || premiumUntil !== null))
  const slug = getLastProfession()
  const professionSlug = useProfessionSlug()
  const clearSession = useClearSession()
  const navigate = useNavigate()
  const freshSignIn = useFreshFirebaseSignIn()

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
        <Card>
          <CardHeader>
            <CardTitle>Your practice settings</CardTitle>
          </CardHeader>
          <CardContent>
            <HearingChoice idPrefix="account" video />
          </CardContent>
        </Card>
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
