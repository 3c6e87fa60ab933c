import { describe, expect, it } from 'vitest'
import { initialRecorderState, LATE_CLICK_MS, recorderTransition, type RecorderEvent, type RecorderPhase, type RecorderState } from './recorder'

const saved = { type: 'saved', byLimit: false, replayUrl: 'blob:answer', lengthSeconds: 42, at: 5000 } as const

function inPhase(phase: RecorderPhase, notes = ''): RecorderState {
  return { phase, notes }
}

/** One state of every phase, to try every event on. */
const everyPhase: RecorderState[] = [
  inPhase({ name: 'preparing', autoStart: true }),
  inPhase({ name: 'preparing', autoStart: false }),
  inPhase({ name: 'countingDown' }),
  inPhase({ name: 'ready' }),
  inPhase({ name: 'recording', askedEarly: 1 }),
  inPhase({ name: 'saved', byLimit: false, heldUntil: 0, replayUrl: 'blob:earlier', lengthSeconds: 10, askedEarly: 0 }),
]

/** The phases each event moves on from; in any other it changes nothing. */
const allowedFrom: Record<RecorderEvent['type'], RecorderPhase['name'][]> = {
  prepEnded: ['preparing'],
  micMissing: ['countingDown'],
  recordingStarted: ['countingDown', 'ready'],
  askedEarly: ['recording'],
  saved: ['recording'],
  notesChanged: ['preparing', 'countingDown', 'ready', 'recording'],
}

const oneOfEach: RecorderEvent[] = [
  { type: 'prepEnded' },
  { type: 'micMissing' },
  { type: 'recordingStarted' },
  { type: 'askedEarly', asked: 2 },
  saved,
  { type: 'notesChanged', notes: 'ABCDE' },
]

describe('the recorder', () => {
  it('starts with preparation when the question has it, else counting down when it starts by itself, else ready', () => {
    expect(initialRecorderState({ prepSeconds: 120, autoStart: true })).toEqual(inPhase({ name: 'preparing', autoStart: true }))
    expect(initialRecorderState({ prepSeconds: 30, autoStart: false })).toEqual(inPhase({ name: 'preparing', autoStart: false }))
    expect(initialRecorderState({ prepSeconds: 0, autoStart: true })).toEqual(inPhase({ name: 'countingDown' }))
    expect(initialRecorderState({ prepSeconds: 0, autoStart: false })).toEqual(inPhase({ name: 'ready' }))
  })

  it('goes from preparation to the countdown, or to waiting for Start, keeping the notes', () => {
    expect(recorderTransition(inPhase({ name: 'preparing', autoStart: true }, 'ABCDE'), { type: 'prepEnded' })).toEqual(inPhase({ name: 'countingDown' }, 'ABCDE'))
    expect(recorderTransition(inPhase({ name: 'preparing', autoStart: false }, 'ABCDE'), { type: 'prepEnded' })).toEqual(inPhase({ name: 'ready' }, 'ABCDE'))
  })

  it('waits for Start when the countdown ends before the microphone is there', () => {
    expect(recorderTransition(inPhase({ name: 'countingDown' }), { type: 'micMissing' })).toEqual(inPhase({ name: 'ready' }))
  })

  it('records from the countdown or from Start, no follow-up asked early yet', () => {
    for (const from of [inPhase({ name: 'countingDown' }, 'n'), inPhase({ name: 'ready' }, 'n')]) {
      expect(recorderTransition(from, { type: 'recordingStarted' })).toEqual(inPhase({ name: 'recording', askedEarly: 0 }, 'n'))
    }
  })

  it('shows a follow-up early, never fewer than already shown', () => {
    const recording = inPhase({ name: 'recording', askedEarly: 1 })
    expect(recorderTransition(recording, { type: 'askedEarly', asked: 2 })).toEqual(inPhase({ name: 'recording', askedEarly: 2 }))
    expect(recorderTransition(recording, { type: 'askedEarly', asked: 1 })).toBe(recording)
  })

  it('saves a stopped answer with its replay and length, Next free at once', () => {
    expect(recorderTransition(inPhase({ name: 'recording', askedEarly: 2 }, 'n'), saved)).toEqual(
      inPhase({ name: 'saved', byLimit: false, heldUntil: 0, replayUrl: 'blob:answer', lengthSeconds: 42, askedEarly: 2 }, 'n'),
    )
  })

  it('holds Next for a moment when the limit saved the answer, so a late click on Stop does not skip on', () => {
    const next = recorderTransition(inPhase({ name: 'recording', askedEarly: 0 }), { ...saved, byLimit: true })
    expect(next.phase).toMatchObject({ name: 'saved', byLimit: true, heldUntil: 5000 + LATE_CLICK_MS })
  })

  it('takes notes until the answer is saved', () => {
    expect(recorderTransition(inPhase({ name: 'recording', askedEarly: 0 }, 'AB'), { type: 'notesChanged', notes: 'ABC' })).toEqual(
      inPhase({ name: 'recording', askedEarly: 0 }, 'ABC'),
    )
  })

  // Among them: a second save (the limit and a click on Stop together), a
  // late end of preparation, Start after the answer is saved.
  it('ignores every event in a phase it cannot happen in, returning the same state', () => {
    let tried = 0
    for (const state of everyPhase) {
      for (const event of oneOfEach) {
        const next = recorderTransition(state, event)
        if (allowedFrom[event.type].includes(state.phase.name)) expect(next, `${event.type} from ${state.phase.name}`).not.toBe(state)
        else {
          expect(next, `${event.type} from ${state.phase.name}`).toBe(state)
          tried++
        }
      }
    }
    expect(tried).toBe(24)
  })
})
