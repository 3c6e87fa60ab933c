import { describe, expect, it } from 'vitest'
import { defaultSessionTitle } from './session-title'

describe('session title', () => {
  it('defaults the title to "Session {date/time}" in the given locale', () => {
    // ICU versions differ in the space before PM.
    expect(defaultSessionTitle(new Date(2025, 8, 7, 14, 5), 'en-US')).toMatch(/^Session Sep 7, 2025, 2:05\sPM$/)
  })
})
