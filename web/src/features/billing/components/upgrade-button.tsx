import { useId } from 'react'
import { failures } from '@/api/failures'
import { EmailLink } from '@/components/email-link'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import type { ProfessionSlug } from '@/lib/professions'
import { useCreateCheckoutSession } from '../api/create-checkout-session'

/** Where the browser goes to pay; a seam for tests. */
export const checkoutNavigation = { go: (url: string) => window.location.assign(url) }

function failureText(error: unknown): { text: string; support: boolean } {
  if (error instanceof ApiError && error.status === 503) return { text: error.message, support: true }
  if (error instanceof ApiError && error.status === 409) return { text: error.message, support: false }
  // Spec §8: what a failed checkout says, whatever went wrong (even a request that never arrived).
  return { text: failures.checkoutFailed.message, support: false }
}

/**
 * Starts Stripe Checkout (or the development checkout) for a one-year
 * Premium pass and sends the browser there; says so plainly when it cannot.
 */
export function UpgradeButton({
  slug,
  label = 'Upgrade',
  size = 'default',
  className,
}: {
  slug: ProfessionSlug
  label?: string
  size?: 'default' | 'sm' | 'lg'
  className?: string
}) {
  const checkout = useCreateCheckoutSession()
  const errorId = useId()
  const failure = checkout.isError ? failureText(checkout.error) : null
  const pending = checkout.isPending || checkout.isSuccess
  return (
    // The message wraps under the button instead of widening it.
    <div className="flex max-w-xs flex-col gap-2">
      <Button
        size={size}
        className={className}
        disabled={pending}
        aria-describedby={failure ? errorId : undefined}
        onClick={() =>
          checkout.mutate(
            { profession: slug },
            {
              onSuccess: ({ url }) => checkoutNavigation.go(url),
              onError: (err) => console.error('Server error', err),
            },
          )
        }
      >
        {pending ? 'Opening checkout…' : label}
      </Button>
      {failure ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {failure.text}
          {failure.support ? (
            <>
              {' '}
              Write to{' '}
              <EmailLink to="support" className="font-medium underline" />{' '}
              to buy a pass.
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}
