/**
 * One question's recorder as a state machine (spec: idle, recording,
 * saved; the timed formats add preparation and a 3-2-1 countdown before
 * it). The microphone's permission and the answer's upload are the
 * session's, not the question's, so they are not states here.
 *
 *   preparing ──prepEnded──> countingDown (the question starts by itself)
 *             └─prepEnded──> ready        (the student presses Start)
 *   countingDown ──micMissing──> ready    (Start waits for the microphone)
 *   countingDown, ready ──recordingStarted──> recording
 *   recording ──askedEarly──> recording   (a follow-up sooner than its time)
 *   recording ──saved──> saved            (Stop, or the limit)
 *
 * Any other event in a phase is one that can no longer matter (the limit
 * and a click on Stop arriving together, a late tick of a clock that was
 * just ended): it leaves the state as it is, the same object, so React
 * does not even render again.
 */
export type RecorderPhase =
  | { name: 'preparing'; autoStart: boolean }
  | { name: 'countingDown' }
  | { name: 'ready' }
  | { name: 'recording'; askedEarly: number }
  | {
      name: 'saved'
      /** The limit stopped it, not the student. */
      byLimit: boolean
      /** Next ignores clicks until then (a performance.now() time; 0 when it does not). */
      heldUntil: number
      /** The answer in memory, to replay. */
      replayUrl: string
      lengthSeconds: number
      askedEarly: number
    }

export interface RecorderState {
  phase: RecorderPhase
  /** A station's notes, kept from reading time through the answer. */
  notes: string
}

export type RecorderEvent =
  | { type: 'prepEnded' }
  | { type: 'micMissing' }
  | { type: 'recordingStarted' }
  /** `asked` is how many follow-ups are then shown. */
  | { type: 'askedEarly'; asked: number }
  /** `at` is performance.now() when the answer was saved. */
  | { type: 'saved'; byLimit: boolean; replayUrl: string; lengthSeconds: number; at: number }
  | { type: 'notesChanged'; notes: string }

/** How long Next ignores clicks after the limit stopped a recording. */
export const LATE_CLICK_MS = 1000

export function initialRecorderState(item: { prepSeconds: number; autoStart: boolean }): RecorderState {
  const phase: RecorderPhase = item.prepSeconds > 0 ? { name: 'preparing', autoStart: item.autoStart } : item.autoStart ? { name: 'countingDown' } : { name: 'ready' }
  return { phase, notes: '' }
}

export function recorderTransition(state: RecorderState, event: RecorderEvent): RecorderState {
  const { phase } = state
  switch (event.type) {
    case 'prepEnded':
      if (phase.name !== 'preparing') return state
      return { ...state, phase: phase.autoStart ? { name: 'countingDown' } : { name: 'ready' } }
    case 'micMissing':
      if (phase.name !== 'countingDown') return state
      return { ...state, phase: { name: 'ready' } }
    case 'recordingStarted':
      if (phase.name !== 'countingDown' && phase.name !== 'ready') return state
      return { ...state, phase: { name: 'recording', askedEarly: 0 } }
    case 'askedEarly':
      if (phase.name !== 'recording' || event.asked <= phase.askedEarly) return state
      return { ...state, phase: { ...phase, askedEarly: event.asked } }
    case 'saved':
      if (phase.name !== 'recording') return state
      return {
        ...state,
        phase: {
          name: 'saved',
          byLimit: event.byLimit,
          // Next takes Stop's place: a click meant for Stop that arrives as
          // the limit stops the recording must not skip to the next question.
          heldUntil: event.byLimit ? event.at + LATE_CLICK_MS : 0,
          replayUrl: event.replayUrl,
          lengthSeconds: event.lengthSeconds,
          askedEarly: phase.askedEarly,
        },
      }
    case 'notesChanged':
      // The notes pad is gone once the answer is saved.
      if (phase.name === 'saved') return state
      return { ...state, notes: event.notes }
  }
}
