import type { ReactNode } from 'react'

/**
 * Signed-out actions while the visitor may not be known yet (the me
 * request pending; on a prerendered page, the app not yet loaded): shown,
 * working as plain links, unless the server saw a session cookie
 * (<html data-session>), when they hold their place unseen (index.css) so
 * that a student is not offered to log in. The same element either way,
 * so that nothing is redrawn when the visitor becomes known.
 */
export function AuthPending({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <span className="contents" data-auth-pending={pending ? '' : undefined}>
      {children}
    </span>
  )
}
