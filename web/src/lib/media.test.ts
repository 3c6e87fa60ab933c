import { describe, expect, it, vi } from 'vitest'
import { AUDIO_MIME_TYPES, MEDIA_ERRORS, mediaErrorMessage, PIECE_MS, pickMimeType, startRecording, VIDEO_MIME_TYPES } from './media'

const supports = (...types: string[]) => (t: string) => types.includes(t)

describe('pickMimeType', () => {
  it('prefers WebM/Opus where it exists (Chromium, Firefox)', () => {
    expect(pickMimeType(AUDIO_MIME_TYPES, supports('audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'))).toBe('audio/webm;codecs=opus')
    expect(pickMimeType(VIDEO_MIME_TYPES, supports('video/webm;codecs=vp8,opus', 'video/webm'))).toBe('video/webm;codecs=vp8,opus')
  })
  it('falls back to plain WebM, then MP4 (Safari)', () => {
    expect(pickMimeType(AUDIO_MIME_TYPES, supports('audio/webm'))).toBe('audio/webm')
    expect(pickMimeType(AUDIO_MIME_TYPES, supports('audio/mp4'))).toBe('audio/mp4')
    expect(pickMimeType(VIDEO_MIME_TYPES, supports('video/mp4'))).toBe('video/mp4')
  })
  it("leaves the choice to the recorder when nothing listed is supported", () => {
    expect(pickMimeType(AUDIO_MIME_TYPES, supports())).toBe('')
  })
})

describe('mediaErrorMessage', () => {
  it.each([
    ['NotAllowedError', MEDIA_ERRORS.denied],
    ['SecurityError', MEDIA_ERRORS.denied],
    ['NotFoundError', MEDIA_ERRORS.notFound],
    ['OverconstrainedError', MEDIA_ERRORS.notFound],
    ['NotReadableError', MEDIA_ERRORS.other],
    ['AbortError', MEDIA_ERRORS.other],
  ])('%s -> %s', (name, text) => {
    expect(mediaErrorMessage(new DOMException('x', name))).toBe(text)
  })
  it('uses the spec texts verbatim', () => {
    expect(Object.values(MEDIA_ERRORS)).toEqual([
      'Browser does not support getUserMedia.',
      'Camera and microphone access was denied.',
      'No camera or microphone found.',
      'Unable to access media devices.',
    ])
    expect(mediaErrorMessage('nonsense')).toBe('Unable to access media devices.')
  })
})

/** Recorders that hand over a piece per start(timeslice) call to emit(), and the rest on stop. */
function fakeRecorders() {
  const recorders: FakeRecorder[] = []
  class FakeRecorder {
    static isTypeSupported = (t: string) => t === 'audio/mp4' || t === 'video/mp4'
    state = 'inactive'
    timeslice: number | undefined
    ondataavailable: ((e: { data: Blob }) => void) | null = null
    onstop: (() => void) | null = null
    constructor(
      readonly stream: unknown,
      readonly opts: { mimeType: string },
    ) {
      recorders.push(this)
    }
    get mimeType() {
      return this.opts.mimeType
    }
    start(timeslice?: number) {
      this.state = 'recording'
      this.timeslice = timeslice
    }
    emit(text: string) {
      this.ondataavailable?.({ data: new Blob([text], { type: this.mimeType }) })
    }
    stop() {
      this.state = 'inactive'
      this.emit('end')
      this.emit('')
      this.onstop?.()
    }
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder)
  vi.stubGlobal('MediaStream', class {
    constructor(readonly tracks: unknown[]) {}
  })
  return recorders
}

describe('startRecording', () => {
  it('hands over the audio in pieces as it is recorded (fragmented MP4 on Safari) and all of it on stop', async () => {
    const recorders = fakeRecorders()
    const pieces: Blob[] = []
    const rec = startRecording({} as MediaStream, 'audio', (p) => pieces.push(p))
    const [audio] = recorders
    expect(audio?.timeslice).toBe(PIECE_MS)
    audio?.emit('ftyp-moov')
    audio?.emit('moof-mdat')
    const answer = await rec.stop()
    expect(await Promise.all(pieces.map(async (p) => `${p.type} ${await p.text()}`))).toEqual(['audio/mp4 ftyp-moov', 'audio/mp4 moof-mdat', 'audio/mp4 end'])
    expect(answer.replay).toBe(answer.audio)
    expect(answer.audio.type).toBe('audio/mp4')
    expect(await answer.audio.text()).toBe('ftyp-moovmoof-mdatend')
  })

  it('in video mode streams only the audio recorder; the video stays whole for replay', async () => {
    const recorders = fakeRecorders()
    const onPiece = vi.fn()
    const stream = { getAudioTracks: () => ['mic'] } as unknown as MediaStream
    const rec = startRecording(stream, 'video', onPiece)
    const [audio, video] = recorders
    expect(audio?.stream).toEqual({ tracks: ['mic'] })
    expect(video?.stream).toBe(stream)
    expect(video?.timeslice).toBeUndefined()
    const answer = await rec.stop()
    expect(onPiece).toHaveBeenCalledTimes(1)
    expect(answer.replay.type).toBe('video/mp4')
    expect(answer.audio.type).toBe('audio/mp4')
  })
})
