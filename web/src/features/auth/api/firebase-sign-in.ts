import { useMutation } from '@tanstack/react-query'
import { useEffect } from 'react'
import { api, unwrap } from '@/lib/api-client'
import { type FirebaseConfig, useFirebaseConfig } from './get-firebase-config'
import { useLoginAnswer } from './signed-in'

/** The SDK is fetched when the button appears, so the popup opens on the click itself (Safari blocks popups opened later). */
export function loadFirebaseSdk() {
  return import('./firebase-sdk')
}

/** Shown when the popup is closed or Firebase refuses; the server's own refusals carry their own text. */
export const FIREBASE_POPUP_FAILED = 'Firebase sign-in did not finish. Try again, or log in with your email and password.'

/** Opens the Google popup and returns a fresh Firebase ID token. */
async function popupIdToken(config: FirebaseConfig) {
  const sdk = await loadFirebaseSdk()
  try {
    return await sdk.firebaseIdToken(config)
  } catch (err) {
    console.error('firebase popup:', err)
    throw new Error(FIREBASE_POPUP_FAILED)
  }
}

export async function firebaseSignIn(config: FirebaseConfig) {
  const idToken = await popupIdToken(config)
  return unwrap(api.POST('/api/auth/firebase', { body: { idToken } }))
}

/**
 * A fresh Google sign-in, which confirms an account deletion instead of a
 * password (an account made with Google has none its owner knows): a
 * function that opens the popup and returns its ID token, or null when
 * this server takes no Firebase sign-ins.
 */
export function useFreshFirebaseSignIn(): (() => Promise<string>) | null {
  const config = useFirebaseConfig().data
  const enabled = config?.enabled === true
  useEffect(() => {
    if (enabled) void loadFirebaseSdk()
  }, [enabled])
  return config && enabled ? () => popupIdToken(config) : null
}

/** Signs in through Firebase; like a password login, an admin still owes the second factor. */
export function useFirebaseSignIn() {
  return useMutation({ mutationFn: firebaseSignIn, onSuccess: useLoginAnswer() })
}
