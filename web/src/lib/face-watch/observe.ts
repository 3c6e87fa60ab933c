/**
 * What one camera frame shows of the student (issue 42), from the face
 * mesh's landmarks: whether a face is there, how it sits in the frame,
 * where the head points and where the eyes look. Pure, so that the rules
 * are tested without a camera.
 *
 * Angles are in degrees from the student's point of view: yaw > 0 is
 * turned to their left, pitch > 0 is looking down. The camera's picture is
 * not mirrored: the student's left is the picture's right.
 */

/** Landmark indices of the face mesh (with refined irises, 478 points). */
const LM = {
  noseTip: 1,
  forehead: 10,
  chin: 152,
  /** The face's edges at the cheekbones: the picture's left, then right. */
  cheekLeft: 234,
  cheekRight: 454,
  /** The eye on the picture's left: corners outer, inner; lids top, bottom; iris center. */
  eyeA: { outer: 33, inner: 133, top: 159, bottom: 145, iris: 468 },
  /** The eye on the picture's right. */
  eyeB: { inner: 362, outer: 263, top: 386, bottom: 374, iris: 473 },
} as const

/** Points with refined irises. */
export const LANDMARK_COUNT = 478

/** Below this mean brightness (0-255) a frame is too dark to see a face in. */
export const DARK_BRIGHTNESS = 40

/**
 * Where the nose tip sits between the eyes' line and the chin, on a face
 * looking straight at the camera (the face mesh's canonical face).
 */
const NOSE_HEIGHT_LEVEL = 0.37

/** How far the eyes turn, in degrees, for the iris to move from the middle of the eye to its corner. */
const EYE_TURN_DEGREES = 45

/**
 * Eye contact has a tolerance a person would accept: looking at the screen
 * beside a laptop's camera still reads as looking at the interviewer, and
 * the camera sits above the screen, so more room is left looking down.
 */
export const EYE_CONTACT = { yaw: 15, up: 12, down: 20 }

/** Framing bounds, as shares of the frame. */
export const FRAMING = {
  /** The face's height (forehead to chin) is at least this much of the frame's... */
  minHeight: 0.2,
  /** ...and at most this much. */
  maxHeight: 0.75,
  /** Its center lies within this distance of the frame's middle, across and down. */
  maxOffCenter: 0.25,
  /** Landmarks this far outside the frame mean part of the face is cut off. */
  cutOffMargin: 0.01,
}

export type Direction = 'down' | 'up' | 'left' | 'right' | 'out-of-frame'

export interface FramingProblems {
  tooSmall: boolean
  tooLarge: boolean
  offCenter: boolean
  cutOff: boolean
}

/** One analyzed frame. */
export interface Observation {
  /** Seconds since the answer started. */
  at: number
  dark: boolean
  /** Absent when no face was found. */
  face?: {
    /** Where the head points. */
    yaw: number
    pitch: number
    /** Where the eyes look: the head's angles plus the eyes' own turn. */
    gazeYaw: number
    gazePitch: number
    framing: FramingProblems
  }
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))
const degrees = (radians: number) => (radians * 180) / Math.PI

/** The angle whose sine is s, in degrees, for a ratio that may overshoot ±1. */
const asinDegrees = (s: number) => degrees(Math.asin(clamp(s, -1, 1)))

/**
 * Observes a frame: points are the face mesh's landmarks (x, y, z per
 * point, x and y as shares of the frame's width and height), null when no
 * face was found; brightness is the frame's mean luma, 0-255.
 */
export function observe(at: number, points: Float32Array | null, brightness: number): Observation {
  const dark = brightness < DARK_BRIGHTNESS
  if (!points || points.length < LANDMARK_COUNT * 3) return { at, dark }
  const x = (i: number) => points[i * 3]!
  const y = (i: number) => points[i * 3 + 1]!

  // Head yaw from parallax: the nose tip stands out from the face, so as
  // the head turns it moves toward one cheek (a cylinder's point at angle
  // θ projects to sin θ of its radius).
  const across = (x(LM.noseTip) - x(LM.cheekLeft)) / (x(LM.cheekRight) - x(LM.cheekLeft))
  const yaw = asinDegrees(2 * across - 1)
  // Pitch likewise, the nose tip between the eyes' line and the chin.
  const eyesY = (y(LM.eyeA.outer) + y(LM.eyeB.outer)) / 2
  const down = (y(LM.noseTip) - eyesY) / (y(LM.chin) - eyesY)
  const pitch = asinDegrees((down - NOSE_HEIGHT_LEVEL) / (1 - NOSE_HEIGHT_LEVEL))

  // The eyes' own turn: where each iris sits between its corners and lids.
  const irisAcross = (eye: { outer: number; inner: number; iris: number }, leftCorner: number, rightCorner: number) =>
    (x(eye.iris) - x(leftCorner)) / (x(rightCorner) - x(leftCorner))
  const irisX = (irisAcross(LM.eyeA, LM.eyeA.outer, LM.eyeA.inner) + irisAcross(LM.eyeB, LM.eyeB.inner, LM.eyeB.outer)) / 2
  const irisDown = (eye: { top: number; bottom: number; iris: number }) => (y(eye.iris) - y(eye.top)) / (y(eye.bottom) - y(eye.top))
  const irisY = (irisDown(LM.eyeA) + irisDown(LM.eyeB)) / 2
  const eyeYaw = clamp(irisX - 0.5, -0.5, 0.5) * 2 * EYE_TURN_DEGREES
  const eyePitch = clamp(irisY - 0.5, -0.5, 0.5) * 2 * EYE_TURN_DEGREES

  let left = Infinity
  let right = -Infinity
  let top = Infinity
  let bottom = -Infinity
  for (let i = 0; i < LANDMARK_COUNT; i++) {
    left = Math.min(left, x(i))
    right = Math.max(right, x(i))
    top = Math.min(top, y(i))
    bottom = Math.max(bottom, y(i))
  }
  const height = y(LM.chin) - y(LM.forehead)
  const framing: FramingProblems = {
    tooSmall: height < FRAMING.minHeight,
    tooLarge: height > FRAMING.maxHeight,
    offCenter: Math.abs((left + right) / 2 - 0.5) > FRAMING.maxOffCenter || Math.abs((top + bottom) / 2 - 0.5) > FRAMING.maxOffCenter,
    cutOff: left < -FRAMING.cutOffMargin || top < -FRAMING.cutOffMargin || right > 1 + FRAMING.cutOffMargin || bottom > 1 + FRAMING.cutOffMargin,
  }
  return { at, dark, face: { yaw, pitch, gazeYaw: yaw + eyeYaw, gazePitch: pitch + eyePitch, framing } }
}

/** Whether the student looked at the camera in o, within EYE_CONTACT's tolerance. */
export function lookingAtCamera(o: Observation): boolean {
  if (!o.face) return false
  const { gazeYaw, gazePitch } = o.face
  return Math.abs(gazeYaw) <= EYE_CONTACT.yaw && gazePitch <= EYE_CONTACT.down && gazePitch >= -EYE_CONTACT.up
}

/** Where the student looked in o instead of at the camera. */
export function lookedToward(o: Observation): Direction {
  if (!o.face) return 'out-of-frame'
  const { gazeYaw, gazePitch } = o.face
  const sideways = Math.abs(gazeYaw) / EYE_CONTACT.yaw
  const vertical = gazePitch > 0 ? gazePitch / EYE_CONTACT.down : -gazePitch / EYE_CONTACT.up
  if (sideways >= vertical) return gazeYaw > 0 ? 'left' : 'right'
  return gazePitch > 0 ? 'down' : 'up'
}
