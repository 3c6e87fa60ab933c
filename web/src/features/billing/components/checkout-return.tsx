import { useEffect, useState } from 'react'
import { EmailLink } from '@/components/email-link'
import { Alert, AlertDescription } from '@/components/ui/alert'

/** How long the dashboard waits for Stripe's webhook before saying so. */
export const CONFIRM_PATIENCE_MS = 30_000

export const CONFIRMING = 'Thank you! We are confirming your payment…'
export const CANCELLED = 'Checkout was canceled. You have not been charged.'

/** Premium's end as the spec's messages write dates: "January 2, 2027". */
export function formatPassDate(iso: string) {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

/**
 * What the dashboard says when Checkout sends the student back: the
 * payment is being confirmed until the webhook has landed (the caller
 * polls meanwhile), then until when Premium runs; a cancelled checkout
 * gets a neutral note.
 */
export function CheckoutReturn({ state, premiumUntil }: { state: 'success' | 'cancelled'; premiumUntil: string | null }) {
  const [late, setLate] = useState(false)
  useEffect(() => {
    if (state !== 'success' || premiumUntil) return
    const timer = window.setTimeout(() => setLate(true), CONFIRM_PATIENCE_MS)
    return () => window.clearTimeout(timer)
  }, [state, premiumUntil])

  let body
  let variant: 'default' | 'success' = 'default'
  if (state === 'cancelled') {
    body = CANCELLED
  } else if (premiumUntil) {
    variant = 'success'
    body = `Premium is active until ${formatPassDate(premiumUntil)}.`
  } else if (late) {
    body = (
      <>
        We&apos;re still confirming your payment. It can take a few minutes; this page updates by itself. If Premium does not appear, write to{' '}
        <EmailLink to="support" className="font-medium underline" />
        .
      </>
    )
  } else {
    body = CONFIRMING
  }
  return (
    <Alert variant={variant} role="status" aria-live="polite">
      <AlertDescription>{body}</AlertDescription>
    </Alert>
  )
}
