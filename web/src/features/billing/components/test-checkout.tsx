import { useNavigate } from 'react-router'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { errorMessage } from '@/lib/api-client'
import type { ProfessionSlug } from '@/lib/professions'
import { usePaySimulatedCheckout } from '../api/pay-simulated-checkout'
import { SimulatedPaymentsNotice } from './simulated-payments-notice'

export const TEST_PAYMENT = 'Test payment — no money moves'

/**
 * The development checkout: stands in for Stripe on a server started with
 * DEV_CHECKOUT=1. Pay sends a signed event through the same fulfilment as
 * Stripe's webhook.
 */
export function TestCheckout({ slug, session, amount }: { slug: ProfessionSlug; session: string; amount: string }) {
  const pay = usePaySimulatedCheckout()
  const navigate = useNavigate()
  return (
    <div className="mx-auto grid max-w-md gap-6 px-4 py-12">
      <title>{`${TEST_PAYMENT} · Whitecoat`}</title>
      <h1 className="text-2xl font-bold tracking-tight">{TEST_PAYMENT}</h1>
      {/* The one warning: the same notice as the pricing page's, not a second one beside it (issue 41). */}
      <SimulatedPaymentsNotice />
      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Whitecoat Premium pass</h2>
          <p className="text-sm text-muted-foreground">One year of practice. One-time payment; it does not renew.</p>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-3xl font-bold">{amount}</p>
          <Button
            size="lg"
            disabled={!session || pay.isPending}
            onClick={() => pay.mutate(session, { onSuccess: () => void navigate(`/${slug}/dashboard?checkout=success`) })}
          >
            {pay.isPending ? 'Paying…' : 'Pay'}
          </Button>
          {pay.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {errorMessage(pay.error)}
            </p>
          ) : null}
          <Link to={`/${slug}/dashboard?checkout=cancelled`} className="text-center text-sm font-medium text-primary underline-offset-4 hover:underline">
            Cancel and go back
          </Link>
        </CardContent>
      </Card>
    </div>
  )
}
