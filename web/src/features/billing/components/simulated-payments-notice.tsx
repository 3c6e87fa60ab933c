import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { usePaymentsMode } from '../api/get-payments-mode'

export const SIMULATED_TITLE = 'Payments are simulated on this server'

/**
 * Said wherever a pass is bought while the server runs the development
 * checkout (DEV_CHECKOUT=1): nothing is charged and Upgrade grants
 * Premium for free, so nobody mistakes this server for the real one.
 */
export function SimulatedPaymentsNotice() {
  if (usePaymentsMode() !== 'simulated') return null
  return (
    <Alert variant="warning">
      <AlertTitle>{SIMULATED_TITLE}</AlertTitle>
      <AlertDescription>
        This is a development server: no card is asked for, nothing is charged, and Upgrade grants a Premium pass for free. Real passes are sold only on
        a server set up with Stripe.
      </AlertDescription>
    </Alert>
  )
}
