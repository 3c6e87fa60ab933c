import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// findBy* and waitFor poll until their condition holds; on a machine whose
// cores are all busy (CI running every phase at once) a render can take
// longer than the default second. This bounds only how long a failing
// condition is waited for: a passing one returns as soon as it holds.
// 5 s was not enough for a chart to render at a load average of 20 (make
// test with CPU burners on both cores and other work on the machine).
configure({ asyncUtilTimeout: 20_000 })

// jsdom's Blob cannot be a fetch body (Node's fetch sends "undefined"), and
// recordings go out with fetch: tests use the Blob Node's fetch gives.
globalThis.Blob = (await new Response('').blob()).constructor as typeof Blob

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
