import { describe, expect, it } from 'vitest'
import { dashboardScoreVariant, scoreVariant } from './score'

describe('score badges', () => {
  it.each([
    [100, 'default'],
    [80, 'default'],
    [79, 'secondary'],
    [70, 'secondary'],
    [69, 'destructive'],
    [0, 'destructive'],
  ])('%i is %s', (score, variant) => {
    expect(scoreVariant(score)).toBe(variant)
  })
  it('the dashboard marks only 80 or more as default', () => {
    expect(dashboardScoreVariant(80)).toBe('default')
    expect(dashboardScoreVariant(79)).toBe('secondary')
    expect(dashboardScoreVariant(10)).toBe('secondary')
  })
})
