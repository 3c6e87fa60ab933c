import { expect, test } from '@playwright/test'
import { totp } from './totp'

// RFC 6238 Appendix B, SHA-1: the ASCII secret "12345678901234567890".
test('the e2e authenticator matches the RFC 6238 test vectors', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
  expect(totp(secret, 59_000, 8)).toBe('94287082')
  expect(totp(secret, 1_111_111_109_000, 8)).toBe('07081804')
  expect(totp(secret, 1_234_567_890_000, 8)).toBe('89005924')
  expect(totp(secret, 20_000_000_000_000, 8)).toBe('65353130')
})
