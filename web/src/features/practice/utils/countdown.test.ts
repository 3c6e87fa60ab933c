import { describe, expect, it } from 'vitest'
import { formatClock } from '@/lib/session-time'
import { countdownAnnouncement, followUpTimes } from './countdown'

describe('countdown', () => {
  it('formats minutes and seconds', () => {
    expect([180, 125, 60, 9, 0, -3].map(formatClock)).toEqual(['3:00', '2:05', '1:00', '0:09', '0:00', '0:00'])
  })

  it('speaks only at the milestones: 1 minute and 30 seconds left', () => {
    const spoken = Array.from({ length: 181 }, (_, i) => 180 - i)
      .map((remaining) => countdownAnnouncement(remaining, 180))
      .filter(Boolean)
    expect(spoken).toEqual(['1 minute left', '30 seconds left'])
  })

  it('stays silent at the start of a short limit', () => {
    expect(countdownAnnouncement(30, 30)).toBeNull()
    expect(countdownAnnouncement(10, 30)).toBeNull()
  })

  it('spreads follow-up prompts over the answer, none when untimed', () => {
    expect(followUpTimes(3, 420)).toEqual([105, 210, 315])
    expect(followUpTimes(1, 60)).toEqual([30])
    expect(followUpTimes(3, 0)).toEqual([])
  })
})
