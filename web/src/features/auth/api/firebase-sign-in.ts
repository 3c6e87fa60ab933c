import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import type { FirebaseConfig } from './get-firebase-config'
import { useLoginAnswer } from './signed-in'

/** The SDK is fetched when the button appears, so the popup opens on the click itself (Safari blocks popups opened later). */
export function loadFirebaseSdk() {
  return import('./firebase-sdk')
}

/** Shown when the popup is closed or Firebase refuses; the server's own refusals carry their own text. */
export const FIREBASE_POPUP_FAILED = 'Firebase sign-in did not finish. Try again, or log in with your email and password.'

export async function firebaseSignIn(config: FirebaseConfig) {
  const sdk = await loadFirebaseSdk()
  let idToken: string
  try {
    idToken = await sdk.firebaseIdToken(config)
  } catch (err) {
    console.error('firebase popup:', err)
    throw new Error(FIREBASE_POPUP_FAILED)
  }
  return unwrap(api.POST('/api/auth/firebase', { body: { idToken } }))
}

/** Signs in through Firebase; like a password login, an admin still owes the second factor. */
export function useFirebaseSignIn() {
  return useMutation({ mutationFn: firebaseSignIn, onSuccess: useLoginAnswer() })
}
