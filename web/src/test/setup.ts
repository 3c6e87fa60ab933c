import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// jsdom's Blob cannot be a fetch body (Node's fetch sends "undefined"), and
// recordings go out with fetch: tests use the Blob Node's fetch gives.
globalThis.Blob = (await new Response('').blob()).constructor as typeof Blob

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
