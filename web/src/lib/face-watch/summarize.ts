import type { components } from '@/api/schema'
import { limits } from '@/api/limits'
import { lookedToward, lookingAtCamera, type Direction, type Observation } from './observe'

/** What the server is sent of a video answer: numbers, never an image. */
export type VideoDelivery = components['schemas']['Delivery']

const bounds = limits.finishAnswer.body.videoDelivery
/** The shortest look away reported, and how many at most (the longest). */
const MIN_LOOK_AWAY_SECONDS = bounds.looksAway.items.seconds.minimum
const MAX_LOOKS_AWAY = bounds.looksAway.maxItems
const MAX_HEAD_MOVEMENT = bounds.headMovement.maximum

/**
 * A look away broken by less eye contact than this is one look: a frame
 * that happens to catch the eyes passing the camera does not end it.
 */
const BRIEF_RETURN_SECONDS = 0.6

/** Nothing the browser measured: it could not run the face mesh. */
export const UNAVAILABLE: VideoDelivery = {
  status: 'unavailable',
  watchedSeconds: 0,
  frames: 0,
  faceSeconds: 0,
  eyeContactSeconds: 0,
  darkSeconds: 0,
  framing: { tooSmallSeconds: 0, tooLargeSeconds: 0, offCenterSeconds: 0, cutOffSeconds: 0 },
  headMovement: 0,
  looksAway: [],
}

const round1 = (x: number) => Math.round(x * 10) / 10

interface Span {
  from: number
  to: number
  toward: Map<Direction, number>
}

/**
 * Sums up the frames of an answer that ended at `end` seconds: each frame
 * stands for the time until the next one (the last until the end), so a
 * slow device's sparse frames still add up to the answer's length from its
 * first frame.
 */
export function summarize(frames: readonly Observation[], end: number): VideoDelivery {
  if (frames.length === 0) return { ...UNAVAILABLE, status: 'measured', watchedSeconds: 0 }
  const out: VideoDelivery = { ...UNAVAILABLE, framing: { ...UNAVAILABLE.framing }, status: 'measured', frames: frames.length, looksAway: [] }
  let moved = 0
  let previousFace: { at: number; yaw: number; pitch: number } | null = null
  let span: Span | null = null
  const spans: Span[] = []
  frames.forEach((o, i) => {
    const until = Math.max(o.at, i + 1 < frames.length ? frames[i + 1]!.at : end)
    const seconds = until - o.at
    if (o.dark) out.darkSeconds += seconds
    if (o.face) {
      out.faceSeconds += seconds
      const { framing } = o.face
      if (framing.tooSmall) out.framing.tooSmallSeconds += seconds
      if (framing.tooLarge) out.framing.tooLargeSeconds += seconds
      if (framing.offCenter) out.framing.offCenterSeconds += seconds
      if (framing.cutOff) out.framing.cutOffSeconds += seconds
      if (previousFace) moved += Math.abs(o.face.yaw - previousFace.yaw) + Math.abs(o.face.pitch - previousFace.pitch)
      previousFace = { at: o.at, yaw: o.face.yaw, pitch: o.face.pitch }
    } else {
      previousFace = null // a face found again has not moved in between
    }
    if (lookingAtCamera(o)) {
      out.eyeContactSeconds += seconds
      if (span && until - span.to > BRIEF_RETURN_SECONDS) span = null
      return
    }
    const toward = lookedToward(o)
    if (!span) {
      span = { from: o.at, to: until, toward: new Map() }
      spans.push(span)
    }
    span.to = until
    span.toward.set(toward, (span.toward.get(toward) ?? 0) + seconds)
  })
  out.watchedSeconds = round1(end - frames[0]!.at)
  out.headMovement = round1(Math.min(MAX_HEAD_MOVEMENT, out.faceSeconds > 0 ? moved / out.faceSeconds : 0))
  out.looksAway = spans
    .filter((s) => s.to - s.from >= MIN_LOOK_AWAY_SECONDS)
    .sort((a, b) => b.to - b.from - (a.to - a.from))
    .slice(0, MAX_LOOKS_AWAY)
    .sort((a, b) => a.from - b.from)
    .map((s) => ({ atSeconds: round1(s.from), seconds: round1(s.to - s.from), toward: mostOf(s.toward) }))
  return rounded(out)
}

/** The direction that lasted longest. */
function mostOf(toward: Map<Direction, number>): Direction {
  let best: Direction = 'out-of-frame'
  let longest = -1
  for (const [d, s] of toward) {
    if (s > longest) [best, longest] = [d, s]
  }
  return best
}

/**
 * Figures to a tenth of a second, each part no larger than its whole
 * after rounding (the server checks that it is not).
 */
function rounded(d: VideoDelivery): VideoDelivery {
  const face = Math.min(round1(d.faceSeconds), d.watchedSeconds)
  const part = (s: number) => Math.min(round1(s), face)
  return {
    ...d,
    faceSeconds: face,
    eyeContactSeconds: part(d.eyeContactSeconds),
    darkSeconds: Math.min(round1(d.darkSeconds), d.watchedSeconds),
    framing: {
      tooSmallSeconds: part(d.framing.tooSmallSeconds),
      tooLargeSeconds: part(d.framing.tooLargeSeconds),
      offCenterSeconds: part(d.framing.offCenterSeconds),
      cutOffSeconds: part(d.framing.cutOffSeconds),
    },
  }
}
