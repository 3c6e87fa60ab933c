import { afterEach, describe, expect, it, vi } from 'vitest'
import { listen, mergeSeam, speechVendor } from './speech-recognition'

type Handler<E> = ((e: E) => void) | null

/** A scripted recogniser: the test says what it hears and when it ends. */
class FakeRecogniser {
  static made: FakeRecogniser[] = []
  lang = ''
  continuous = false
  interimResults = false
  maxAlternatives = 1
  processLocally?: boolean
  onresult: Handler<unknown> = null
  onerror: Handler<{ error: string }> = null
  onend: (() => void) | null = null
  started = false
  constructor() {
    FakeRecogniser.made.push(this)
  }
  start() {
    this.started = true
  }
  stop() {
    queueMicrotask(() => this.onend?.())
  }
  abort() {
    queueMicrotask(() => this.onend?.())
  }
  hear(parts: [string, boolean, number?][]) {
    const results = parts.map(([transcript, isFinal, confidence]) => Object.assign([{ transcript, confidence: confidence ?? 0 }], { isFinal }))
    this.onresult?.({ resultIndex: 0, results })
  }
}

afterEach(() => {
  FakeRecogniser.made = []
  vi.unstubAllGlobals()
})

describe('mergeSeam', () => {
  it('takes words heard again across a restart once', () => {
    expect(mergeSeam('I want to help people', 'help people feel safe')).toBe('I want to help people feel safe')
    expect(mergeSeam('I want to help.', 'Help, every day')).toBe('I want to help. every day')
    expect(mergeSeam('', 'hello')).toBe('hello')
    expect(mergeSeam('one two', 'three')).toBe('one two three')
  })
})

describe('speechVendor', () => {
  it('names who hears the audio', () => {
    expect(speechVendor('Mozilla/5.0 AppleWebKit/537.36 Chrome/142.0 Safari/537.36').company).toBe('Google')
    expect(speechVendor('Mozilla/5.0 AppleWebKit/537.36 Chrome/142.0 Safari/537.36 Edg/142.0').company).toBe('Microsoft')
    expect(speechVendor('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15').company).toBe('Apple')
  })
})

describe('listen', () => {
  it('restarts a session that ends by itself and merges the seam', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecogniser)
    const captions: string[] = []
    const ear = listen({ onDevice: true, onCaption: (t) => captions.push(t) })!
    const first = FakeRecogniser.made[0]!
    expect(first.continuous && first.interimResults && first.processLocally).toBe(true)
    first.hear([['I want to be a dentist', true, 0.9]])
    first.onend?.() // the service ended the session by itself
    const second = FakeRecogniser.made[1]!
    expect(second.started).toBe(true)
    second.hear([['a dentist because', true, 0.7], ['of my', false]])
    expect(captions.at(-1)).toBe('I want to be a dentist because of my')
    // What goes with the recording's pieces: the final words alone, across the seam.
    expect(ear.heardSoFar()).toBe('I want to be a dentist because')
    const got = await ear.stop()
    expect(got).toEqual({ heard: { text: 'I want to be a dentist because of my', onDevice: true, confidence: 0.8 } })
  })

  it('gives up on a network error, once, and reports no text', async () => {
    vi.stubGlobal('SpeechRecognition', FakeRecogniser)
    const onFail = vi.fn()
    const ear = listen({ onDevice: false, onFail })!
    FakeRecogniser.made[0]!.hear([['hello', true]])
    FakeRecogniser.made[0]!.onerror?.({ error: 'network' })
    FakeRecogniser.made[0]!.onerror?.({ error: 'network' })
    expect(ear.heardSoFar()).toBe('') // the server hears this answer alone
    expect(await ear.stop()).toEqual({ failed: 'network' })
    expect(onFail).toHaveBeenCalledTimes(1)
    expect(FakeRecogniser.made).toHaveLength(1) // not restarted after a failure
  })

  it('says when nothing was heard', async () => {
    vi.stubGlobal('SpeechRecognition', FakeRecogniser)
    const ear = listen({ onDevice: false })!
    FakeRecogniser.made[0]!.onerror?.({ error: 'no-speech' })
    expect(await ear.stop()).toEqual({ failed: 'no-result' })
  })
})
