import { describe, expect, it } from 'vitest'
import { LANDMARK_COUNT, lookedToward, lookingAtCamera, observe, type Observation } from './observe'
import { summarize } from './summarize'

/**
 * A face mesh's landmarks for a face of the given height, centered at
 * (cx, cy), its head turned so that the nose tip sits `across` of the way
 * from the picture's left cheek to its right (0.5 is straight on).
 */
function face({ cx = 0.5, cy = 0.45, height = 0.4, across = 0.5, irisAcross = 0.5 } = {}): Float32Array {
  const p = new Float32Array(LANDMARK_COUNT * 3)
  const set = (i: number, x: number, y: number) => p.set([x, y, 0], i * 3)
  const w = height * 0.75
  for (let i = 0; i < LANDMARK_COUNT; i++) set(i, cx, cy) // everything else at the center
  set(10, cx, cy - height / 2) // forehead
  set(152, cx, cy + height / 2) // chin
  set(234, cx - w / 2, cy) // cheeks
  set(454, cx + w / 2, cy)
  const eyeY = cy - height * 0.15
  set(1, cx - w / 2 + across * w, eyeY + 0.37 * (cy + height / 2 - eyeY)) // nose tip, level
  // Eyes, the picture's left one first: its corners left and right, lids, iris.
  for (const [left, right, top, bottom, iris, x0, x1] of [
    [33, 133, 159, 145, 468, cx - w * 0.35, cx - w * 0.1],
    [362, 263, 386, 374, 473, cx + w * 0.1, cx + w * 0.35],
  ] as const) {
    set(left, x0, eyeY)
    set(right, x1, eyeY)
    set(top, (x0 + x1) / 2, eyeY - 0.01)
    set(bottom, (x0 + x1) / 2, eyeY + 0.01)
    set(iris, x0 + irisAcross * (x1 - x0), eyeY)
  }
  return p
}

const at = (t: number, points: Float32Array | null, brightness = 120) => observe(t, points, brightness)

describe('observe', () => {
  it('sees a face looking at the camera as eye contact', () => {
    const o = at(0, face())
    expect(o.face?.yaw).toBeCloseTo(0, 3)
    expect(o.face?.pitch).toBeCloseTo(0, 1)
    expect(lookingAtCamera(o)).toBe(true)
    expect(o.face?.framing).toEqual({ tooSmall: false, tooLarge: false, offCenter: false, cutOff: false })
  })

  it('sees a head turned well away, and which way, from the student’s side', () => {
    const turned = at(0, face({ across: 0.8 }))
    expect(turned.face?.yaw).toBeCloseTo(36.9, 0)
    expect(lookingAtCamera(turned)).toBe(false)
    expect(lookedToward(turned)).toBe('left') // the nose toward the picture's right: the student's left
    expect(lookedToward(at(0, face({ across: 0.2 })))).toBe('right')
  })

  it('accepts eyes turned back to the camera from a slightly turned head', () => {
    expect(lookingAtCamera(at(0, face({ across: 0.68 })))).toBe(false)
    expect(lookingAtCamera(at(0, face({ across: 0.68, irisAcross: 0.3 })))).toBe(true)
  })

  it('tells a missing face, and a dark frame', () => {
    const none = at(0, null, 10)
    expect(none.face).toBeUndefined()
    expect(none.dark).toBe(true)
    expect(lookedToward(none)).toBe('out-of-frame')
  })

  it('names each framing problem', () => {
    expect(at(0, face({ height: 0.1 })).face?.framing.tooSmall).toBe(true)
    expect(at(0, face({ height: 0.9 })).face?.framing.tooLarge).toBe(true)
    expect(at(0, face({ cx: 0.85 })).face?.framing.offCenter).toBe(true)
    expect(at(0, face({ cy: 0.1 })).face?.framing.cutOff).toBe(true)
  })
})

/** Frames every quarter second from `from` to `to` seconds, each made by `make`. */
function frames(from: number, to: number, make: (t: number) => Observation): Observation[] {
  const out: Observation[] = []
  for (let t = from; t < to - 1e-9; t += 0.25) out.push(make(t))
  return out
}

describe('summarize', () => {
  it('adds up a minute that looks away once, turning then leaving the frame', () => {
    const timeline = [
      ...frames(0, 8, (t) => at(t, face())),
      ...frames(8, 13, (t) => at(t, face({ across: 0.85 }))),
      ...frames(13, 16, (t) => at(t, null)),
      ...frames(16, 20, (t) => at(t, face())),
    ]
    const d = summarize(timeline, 20)
    expect(d).toMatchObject({ status: 'measured', frames: 80, watchedSeconds: 20, faceSeconds: 17, eyeContactSeconds: 12, darkSeconds: 0, headMovement: expect.any(Number) })
    expect(d.looksAway).toEqual([{ atSeconds: 8, seconds: 8, toward: 'left' }])
  })

  it('keeps a look away whole through a glance back, drops glances away, and keeps the longest looks in order', () => {
    const away = face({ across: 0.1 })
    const timeline = frames(0, 60, (t) => {
      if (t >= 10 && t < 14 && t !== 12) return at(t, away) // 4 s, one frame back at the camera
      if (t >= 20 && t < 21.5) return at(t, away) // a glance: too short to report
      if (t >= 30 && t < 55 && Math.floor(t) % 2 === 0 && t % 1 < 0.75) return at(t, face({ across: 0.9 })) // many short looks
      return at(t, face())
    })
    const d = summarize(timeline, 60)
    expect(d.looksAway[0]).toEqual({ atSeconds: 10, seconds: 4, toward: 'right' })
    expect(d.looksAway.every((l) => l.seconds >= 2)).toBe(true)
    expect(d.looksAway.map((l) => l.atSeconds)).toEqual([...d.looksAway.map((l) => l.atSeconds)].sort((a, b) => a - b))
  })

  it('measures a still head as steady and a nodding one as not', () => {
    expect(summarize(frames(0, 10, (t) => at(t, face())), 10).headMovement).toBe(0)
    const nodding = summarize(frames(0, 10, (t) => at(t, face({ across: (t * 4) % 2 === 0 ? 0.45 : 0.55 }))), 10)
    expect(nodding.headMovement).toBeGreaterThan(20)
  })

  it('counts dark frames, and starts the watch at the first frame', () => {
    const d = summarize(frames(3, 10, (t) => at(t, null, 5)), 10)
    expect(d).toMatchObject({ watchedSeconds: 7, darkSeconds: 7, faceSeconds: 0, eyeContactSeconds: 0 })
    expect(d.looksAway).toEqual([{ atSeconds: 3, seconds: 7, toward: 'out-of-frame' }])
  })

  it('never reports a part larger than its whole', () => {
    const d = summarize(frames(0, 0.75, (t) => at(t, face({ height: 0.1 }))), 0.7)
    expect(d.faceSeconds).toBeLessThanOrEqual(d.watchedSeconds)
    expect(d.eyeContactSeconds).toBeLessThanOrEqual(d.faceSeconds)
    expect(d.framing.tooSmallSeconds).toBeLessThanOrEqual(d.faceSeconds)
  })
})
