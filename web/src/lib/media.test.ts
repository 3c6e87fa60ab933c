import { describe, expect, it } from 'vitest'
import { AUDIO_MIME_TYPES, MEDIA_ERRORS, mediaErrorMessage, pickMimeType, VIDEO_MIME_TYPES } from './media'

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
