import { afterEach, beforeEach, vi } from 'vitest'

/**
 * A microphone and a MediaRecorder that hands over "op" when it starts with
 * a timeslice (the first piece of a streamed answer) and "us" when stopped.
 */
export function fakeMedia(getUserMedia: () => Promise<unknown> = () => Promise.resolve({ getTracks: () => [], getAudioTracks: () => [] })) {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(getUserMedia) } })
  const recorders: FakeRecorder[] = []
  class FakeRecorder {
    static isTypeSupported = (t: string) => t === 'audio/webm;codecs=opus'
    state = 'inactive'
    /** What the app called, in order: a state read later may already have moved on. */
    calls: string[] = []
    mimeType: string
    ondataavailable: ((e: { data: Blob }) => void) | null = null
    onstop: (() => void) | null = null
    constructor(_: unknown, opts?: { mimeType?: string }) {
      this.mimeType = opts?.mimeType ?? ''
      recorders.push(this)
    }
    start(timeslice?: number) {
      this.calls.push('start')
      this.state = 'recording'
      if (timeslice) queueMicrotask(() => this.ondataavailable?.({ data: new Blob(['op'], { type: this.mimeType }) }))
    }
    stop() {
      this.calls.push('stop')
      this.state = 'inactive'
      this.ondataavailable?.({ data: new Blob(['us'], { type: this.mimeType }) })
      this.onstop?.()
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder)
  URL.createObjectURL = vi.fn(() => 'blob:replay')
  URL.revokeObjectURL = vi.fn()
  return { recorders }
}

/**
 * What a test file whose tests call fakeMedia runs around each of them:
 * called once at its top, it keeps jsdom from loading media and takes the
 * fakes away after each test.
 */
export function setUpFakeMedia() {
  beforeEach(() => {
    // jsdom has no media elements' playback; React only sets their src.
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {})
  })
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'mediaDevices')
    vi.unstubAllGlobals()
  })
}
