import type { ReactNode } from 'react'
import { useSiteFacts } from '@/hooks/use-site-facts'

/**
 * A mailto link to one of the operator's addresses, as the server is
 * configured. It shows the address itself unless given other words; until
 * the address has loaded, the words stand without a link.
 */
export function EmailLink({ to, className, children }: { to: 'support' | 'contact'; className?: string; children?: ReactNode }) {
  const facts = useSiteFacts()
  const address = to === 'support' ? facts?.supportEmail : facts?.contactEmail
  if (!address) return <span className={className}>{children ?? (to === 'support' ? 'our support address' : 'our contact address')}</span>
  return (
    <a href={`mailto:${address}`} className={className}>
      {children ?? address}
    </a>
  )
}
