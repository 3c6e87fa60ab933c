/**
 * A scored try the browser remembers between the landing page and the
 * account made for it. It belongs to the visitor who made it: the sign-up
 * made in this browser binds it to that account's email, and it is kept
 * only by that account; any other account signed in here forgets it.
 */

/** Where the browser holds the try's token, and the email it is bound to once signed up for. */
const PENDING_TRY_KEY = 'whitecoat.pendingTry'

type PendingTry = { token: string; email?: string }

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null
  } catch {
    return null // storage disabled (privacy mode)
  }
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

function read(): PendingTry | null {
  const raw = storage()?.getItem(PENDING_TRY_KEY)
  if (!raw) return null
  try {
    const pending = JSON.parse(raw) as PendingTry
    return typeof pending.token === 'string' ? pending : null
  } catch {
    return null // remembered before tries were bound: no one's to keep
  }
}

/** Remembers a scored try to keep in the account its visitor signs up for. */
export function rememberTry(token: string) {
  storage()?.setItem(PENDING_TRY_KEY, JSON.stringify({ token } satisfies PendingTry))
}

/** Binds the remembered try, if any, to the account just signed up for with email. */
export function bindRememberedTry(email: string) {
  const pending = read()
  if (pending) storage()?.setItem(PENDING_TRY_KEY, JSON.stringify({ token: pending.token, email } satisfies PendingTry))
}

/**
 * The token of the try remembered for the account with email, or null.
 * A try remembered for no account or another one is forgotten here: it is
 * not this account's to keep.
 */
export function rememberedTryOf(email: string): string | null {
  const pending = read()
  if (pending?.email !== undefined && sameEmail(pending.email, email)) return pending.token
  if (storage()?.getItem(PENDING_TRY_KEY)) forgetRememberedTry()
  return null
}

export function forgetRememberedTry() {
  storage()?.removeItem(PENDING_TRY_KEY)
}
