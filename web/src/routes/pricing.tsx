import { useSearchParams } from 'react-router'
import { useMe } from '@/features/auth/api/get-me'
import { PricingPage, type Visitor } from '@/features/billing/components/pricing-page'
import { TestCheckout } from '@/features/billing/components/test-checkout'
import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { useSitePage } from '@/features/site/api/get-site-page'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { useSiteFacts } from '@/hooks/use-site-facts'

export function PricingRoute() {
  const slug = useProfessionSlug()
  const me = useMe()
  // A signed-in student's access decides between practice, "Upgrade" and
  // both; only a verified account has an access status.
  const dashboard = useDashboard({ enabled: !!me.data?.emailVerified })
  const access = dashboard.data?.access
  let visitor: Visitor = { kind: me.isPending ? 'unknown' : 'signed-out' }
  if (me.data) visitor = { kind: 'has-access' }
  if (access && !access.practiceEnabled) visitor = { kind: 'locked', reason: access.banner }
  else if (access?.status === 'free_trial_active') visitor = { kind: 'trial' }
  const facts = useSiteFacts()
  const faq = useSitePage(slug, 'pricing').data?.faq
  return <PricingPage visitor={visitor} slug={slug} facts={facts} faq={faq} />
}

/** The price the checkout page was sent with ("$29.00"), or the spec's. */
function formatAmount(cents: string | null, currency: string | null) {
  const n = Number(cents)
  if (!cents || !Number.isInteger(n) || !currency || !/^[a-z]{3}$/.test(currency)) return '$29.00'
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(n / 100)
}

export function TestCheckoutRoute() {
  const slug = useProfessionSlug()
  const [search] = useSearchParams()
  return <TestCheckout slug={slug} session={search.get('session') ?? ''} amount={formatAmount(search.get('amount'), search.get('currency'))} />
}
