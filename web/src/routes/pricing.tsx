import { useSearchParams } from 'react-router'
import { useMe } from '@/features/auth/api/get-me'
import { PricingPage, type Visitor } from '@/features/billing/components/pricing-page'
import { TestCheckout } from '@/features/billing/components/test-checkout'
import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function PricingRoute() {
  const slug = useProfessionSlug()
  const me = useMe()
  // Whether a signed-in student may practise decides between "Upgrade"
  // and a way into practice; only a verified account has an access status.
  const dashboard = useDashboard({ enabled: !!me.data?.emailVerified })
  let visitor: Visitor = 'signed-out'
  if (me.data) visitor = dashboard.data && !dashboard.data.access.practiceEnabled ? 'needs-upgrade' : 'has-access'
  return <PricingPage visitor={visitor} slug={slug} />
}

export function TestCheckoutRoute() {
  const slug = useProfessionSlug()
  const [search] = useSearchParams()
  return <TestCheckout slug={slug} session={search.get('session') ?? ''} />
}
