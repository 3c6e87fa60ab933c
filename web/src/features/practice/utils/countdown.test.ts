import { describe, expect, it } from 'vitest'
import { countdownAnnouncement, formatClock } from './countdown'

describe('countdown', () => {
  it('formats minutes and seconds', () => {
    expect([180, 125, 60, 9, 0, -3].map(formatClock)).toEqual(['3:00', '2:05', '1:00', '0:09', '0:00', '0:00'])
  })

  it('speaks only at 60, 30 and 10 seconds left', () => {
    const spoken = Array.from({ length: 181 }, (_, i) => 180 - i)
      .map((remaining) => countdownAnnouncement(remaining, 180))
      .filter(Boolean)
    expect(spoken).toEqual(['1 minute remaining', '30 seconds remaining', '10 seconds remaining'])
  })

  it('stays silent at the start of a short limit', () => {
    expect(countdownAnnouncement(30, 30)).toBeNull()
    expect(countdownAnnouncement(10, 30)).toBe('10 seconds remaining')
  })
})
