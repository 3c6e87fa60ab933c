import { describe, expect, it } from 'vitest'
import { describeTrend, linePath, niceMax, ticks, xAt, yAt, type Frame } from './chart'

const frame: Frame = { width: 120, height: 110, left: 10, right: 10, top: 5, bottom: 5 }

describe('trend chart geometry', () => {
  it('rounds the axis up to a readable step', () => {
    expect(niceMax([118, 142.5, null])).toBe(200)
    expect(niceMax([3.2])).toBe(5)
    expect(niceMax([0.8, 0.3])).toBe(1)
    expect(niceMax([null])).toBe(1)
    expect(ticks(200)).toEqual([0, 50, 100, 150, 200])
    expect(ticks(250)).toEqual([0, 50, 100, 150, 200, 250])
    expect(ticks(100)).toEqual([0, 25, 50, 75, 100])
    expect(ticks(5)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('places sessions across and values up the frame', () => {
    expect(xAt(0, 3, frame)).toBe(10)
    expect(xAt(2, 3, frame)).toBe(110)
    expect(xAt(0, 1, frame)).toBe(60)
    expect(yAt(0, 100, frame)).toBe(105)
    expect(yAt(100, 100, frame)).toBe(5)
    expect(yAt(150, 100, frame)).toBe(5)
  })

  it('breaks the line where a session was not measured', () => {
    expect(linePath([50, null, 100, 0], 100, frame)).toBe('M10.0,55.0M76.7,5.0L110.0,105.0')
    expect(linePath([null, null], 100, frame)).toBe('')
  })

  it('tells a screen reader where each series began and where it is now', () => {
    expect(
      describeTrend(
        [
          { label: 'Overall', values: [40, null, 72] },
          { label: 'Pace', values: [null] },
          { label: 'Content', values: [55] },
        ],
        '%',
      ),
    ).toBe('Overall: from 40% to 72%; Pace: not measured yet; Content: 55%')
  })
})
