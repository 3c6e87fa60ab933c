import { describe, expect, it } from 'vitest'
import { scoreVariant } from './score'

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
  it.each([
    [79.5, 'default'],
    [79.4, 'secondary'],
    [69.5, 'secondary'],
    [69.4, 'destructive'],
  ])('%d is banded as the whole percent it is shown as: %s', (score, variant) => {
    expect(scoreVariant(score)).toBe(variant)
  })
})
