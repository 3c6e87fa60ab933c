import { initializeApp, getApps } from '@firebase/app'
import { getAuth, GoogleAuthProvider, signInWithPopup, signOut } from '@firebase/auth'
import type { FirebaseConfig } from './get-firebase-config'

/**
 * Signs in with the project's Firebase Authentication (Google accounts)
 * in a popup and returns the ID token for our server to exchange. The
 * Firebase session itself is ended at once: from here on our own cookie
 * is the sign-in. Loaded only on pages that offer it.
 */
export async function firebaseIdToken(config: FirebaseConfig): Promise<string> {
  const app = getApps()[0] ?? initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId })
  const auth = getAuth(app)
  const { user } = await signInWithPopup(auth, new GoogleAuthProvider())
  try {
    return await user.getIdToken()
  } finally {
    await signOut(auth)
  }
}
