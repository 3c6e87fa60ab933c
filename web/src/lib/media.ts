/**
 * Browser media helpers with no UI: which recording format to ask for and
 * what to tell the user when the camera or microphone cannot be opened.
 */

/** Preference order: WebM/Opus everywhere it exists, MP4/AAC on Safari. */
export const AUDIO_MIME_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'] as const
export const VIDEO_MIME_TYPES = ['video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'] as const

/**
 * The first type in `candidates` the browser can record, or '' to let the
 * recorder choose (it then reports its choice in MediaRecorder.mimeType).
 */
export function pickMimeType(candidates: readonly string[], isTypeSupported: (type: string) => boolean): string {
  return candidates.find((type) => isTypeSupported(type)) ?? ''
}

/** The spec's media errors (§8), shown in red on the session screen. */
export const MEDIA_ERRORS = {
  unsupported: 'Browser does not support getUserMedia.',
  denied: 'Camera and microphone access was denied.',
  notFound: 'No camera or microphone found.',
  other: 'Unable to access media devices.',
} as const

/** Maps a getUserMedia rejection (a DOMException by name) to the spec's text. */
export function mediaErrorMessage(err: unknown): string {
  const name = err instanceof Error || err instanceof DOMException ? err.name : ''
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return MEDIA_ERRORS.denied
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return MEDIA_ERRORS.notFound
    default:
      return MEDIA_ERRORS.other
  }
}

/** Opens the microphone, and the camera too in video mode. Rejects with the spec's text. */
export async function openMedia(mode: 'audio' | 'video'): Promise<MediaStream> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) throw new Error(MEDIA_ERRORS.unsupported)
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: true, video: mode === 'video' })
  } catch (err) {
    throw new Error(mediaErrorMessage(err))
  }
}

/** Both parts of one recorded answer. */
export interface RecordedAnswer {
  /** What the user plays back: the video in video mode, else the audio. */
  replay: Blob
  /** What the server transcribes: always audio only. */
  audio: Blob
}

/** How often the audio recorder hands over what it has, so it can be sent while the student speaks. */
export const PIECE_MS = 1000

/** The MIME type to send a recording or a piece of one with: the recorder's, else WebM. */
export function recordingType(recording: Blob): string {
  return recording.type || 'audio/webm'
}

function recorderFor(stream: MediaStream, candidates: readonly string[], onPiece?: (piece: Blob) => void) {
  const mimeType = pickMimeType(candidates, (t) => MediaRecorder.isTypeSupported(t))
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined)
  const chunks: Blob[] = []
  recorder.ondataavailable = (e) => {
    if (e.data.size === 0) return
    chunks.push(e.data)
    onPiece?.(e.data)
  }
  const stopped = new Promise<Blob>((done) => {
    recorder.onstop = () => done(new Blob(chunks, { type: recorder.mimeType || mimeType }))
  })
  return { recorder, stopped }
}

/**
 * Starts recording `stream`. In video mode a second recorder takes only the
 * audio tracks: the server transcribes audio only and caps uploads, so the
 * video stays in the browser for replay. The audio comes out in pieces every
 * PIECE_MS, each given to `onPiece` as it comes (the last one before stop()
 * resolves); in order they make up the audio blob (WebM, or fragmented MP4
 * on Safari). stop() resolves with both blobs.
 */
export function startRecording(stream: MediaStream, mode: 'audio' | 'video', onPiece: (piece: Blob) => void): { stop: () => Promise<RecordedAnswer> } {
  const audio = recorderFor(mode === 'video' ? new MediaStream(stream.getAudioTracks()) : stream, AUDIO_MIME_TYPES, onPiece)
  const video = mode === 'video' ? recorderFor(stream, VIDEO_MIME_TYPES) : null
  audio.recorder.start(PIECE_MS)
  video?.recorder.start()
  return {
    async stop() {
      for (const r of [audio.recorder, video?.recorder]) if (r && r.state !== 'inactive') r.stop()
      const audioBlob = await audio.stopped
      const replay = video ? await video.stopped : audioBlob
      return { replay, audio: audioBlob }
    },
  }
}
