/**
 * The browser's own speech recogniser (Web Speech API), run beside the
 * recorder when the student chose to be heard by it (issue 39). Chrome and
 * Edge send the audio to Google's or Microsoft's service unless asked to
 * recognise on the device (`processLocally`, Chrome 142+); Safari has
 * `webkitSpeechRecognition` on Apple's service; Firefox has none. The API's
 * shapes are declared here: TypeScript's DOM library does not carry all of
 * them (processLocally, available(), install(), start(track)).
 */

export const SPEECH_LANG = 'en-US'

interface Alternative {
  readonly transcript: string
  readonly confidence: number
}
interface Result {
  readonly isFinal: boolean
  readonly length: number
  readonly [index: number]: Alternative
}
interface ResultEvent {
  readonly resultIndex: number
  readonly results: { readonly length: number; readonly [index: number]: Result }
}
interface ErrorEvent {
  readonly error: string
}
interface Recogniser {
  lang: string
  continuous: boolean
  interimResults: boolean
  maxAlternatives: number
  processLocally?: boolean
  onresult: ((e: ResultEvent) => void) | null
  onerror: ((e: ErrorEvent) => void) | null
  onend: (() => void) | null
  start: (track?: MediaStreamTrack) => void
  stop: () => void
  abort: () => void
}
type Availability = 'available' | 'downloadable' | 'downloading' | 'unavailable'
interface RecogniserClass {
  new (): Recogniser
  available?: (opts: { langs: string[]; processLocally: boolean }) => Promise<Availability>
  install?: (opts: { langs: string[]; processLocally: boolean }) => Promise<boolean>
}

function recogniserClass(): RecogniserClass | null {
  if (typeof window === 'undefined') return null
  const w = window as unknown as { SpeechRecognition?: RecogniserClass; webkitSpeechRecognition?: RecogniserClass }
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null
}

/** Whether this browser has a speech recogniser at all (Firefox has none). */
export function hasRecogniser(): boolean {
  return recogniserClass() !== null
}

/** The company whose service hears the audio when the browser's recogniser is not on the device. */
export function speechVendor(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): { company: string; browser: string } {
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return { company: 'Microsoft', browser: 'Edge' }
  if (/\b(Chrome|Chromium|CriOS)\//.test(userAgent)) return { company: 'Google', browser: 'Chrome' }
  if (/\bSafari\//.test(userAgent)) return { company: 'Apple', browser: 'Safari' }
  return { company: 'your browser’s maker', browser: 'your browser' }
}

/** Whether the browser can recognise English on the device: 'unavailable' where it cannot say. */
export async function onDeviceAvailability(): Promise<Availability> {
  const cls = recogniserClass()
  if (!cls?.available) return 'unavailable'
  try {
    return await cls.available({ langs: [SPEECH_LANG], processLocally: true })
  } catch {
    return 'unavailable'
  }
}

/** Asks the browser to download its on-device English model; true once installed. */
export async function installOnDevice(): Promise<boolean> {
  const cls = recogniserClass()
  if (!cls?.install) return false
  try {
    return await cls.install({ langs: [SPEECH_LANG], processLocally: true })
  } catch {
    return false
  }
}

/** What the browser heard of one answer: the finish call's browserTranscript. */
export interface BrowserHeard {
  text: string
  confidence?: number
  onDevice: boolean
}

/** Why the browser's recogniser gave up on an answer. */
export type ListenFailure = 'network' | 'not-allowed' | 'service-not-allowed' | 'language-not-supported' | 'no-result' | 'other'

const FAILURE_TEXT: Record<ListenFailure, string> = {
  network: 'your browser could not reach its speech service',
  'not-allowed': 'your browser did not allow speech recognition',
  'service-not-allowed': 'your browser’s speech service is turned off',
  'language-not-supported': 'your browser cannot recognize English',
  'no-result': 'your browser heard nothing',
  other: 'your browser’s recognizer stopped',
}

/** The note shown once when an answer falls back to the server. */
export function fallbackNote(why: ListenFailure): string {
  return `Your browser’s speech recognition stopped (${FAILURE_TEXT[why]}). This answer will be transcribed by Whitecoat’s server instead.`
}

const normal = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '')

/**
 * Joins what one recognition session heard to what the earlier ones did.
 * A session restarted mid-answer may hear again the last words the one
 * before it had: those (up to 4 words) are taken once.
 */
export function mergeSeam(before: string, after: string): string {
  const a = before.trim().split(/\s+/).filter(Boolean)
  const b = after.trim().split(/\s+/).filter(Boolean)
  for (let k = Math.min(4, a.length, b.length); k > 0; k--) {
    const tail = a.slice(a.length - k).map(normal).join(' ')
    const head = b.slice(0, k).map(normal).join(' ')
    if (tail !== '' && tail === head) return [...a, ...b.slice(k)].join(' ')
  }
  return [...a, ...b].join(' ')
}

export interface Listener {
  /** Stops listening and gives what was heard; a failure when nothing usable was. */
  stop: () => Promise<{ heard: BrowserHeard } | { failed: ListenFailure }>
  /** Stops listening and forgets (the answer was abandoned). */
  abort: () => void
  /**
   * The words heard so far that the recogniser will not change (its final
   * results): sent with the recording's pieces, for the server to line
   * them up with the audio while the student speaks. "" once failed.
   */
  heardSoFar: () => string
}

export interface ListenOptions {
  /** The recorder's microphone: listened to directly where the browser can (Chrome 135+). */
  track?: MediaStreamTrack
  onDevice: boolean
  /** The words so far, final and interim, as the student speaks. */
  onCaption?: (text: string) => void
  /** Called once when the recogniser fails for good; the answer then goes to the server alone. */
  onFail?: (why: ListenFailure) => void
}

const FATAL: readonly string[] = ['network', 'not-allowed', 'service-not-allowed', 'language-not-supported', 'audio-capture', 'bad-grammar']

/**
 * listen runs continuous recognition with interim results until stop(),
 * restarting a session that ends by itself (after a minute or a silence)
 * and merging the seam. Null where the browser has no recogniser.
 */
export function listen(opts: ListenOptions): Listener | null {
  const cls = recogniserClass()
  if (!cls) return null
  let committed = '' // the finished sessions' words
  let finals = '' // this session's final words
  let interim = ''
  const confidences: number[] = []
  let sessionConfidences: number[] = []
  let stopping = false
  let failed: ListenFailure | null = null
  let current: Recogniser | null = null
  let ended: (() => void) | null = null

  const caption = () => opts.onCaption?.(mergeSeam(mergeSeam(committed, finals), interim))

  const fail = (why: ListenFailure) => {
    if (failed) return
    failed = why
    opts.onFail?.(why)
    current?.abort()
  }

  const begin = () => {
    const rec = new cls()
    current = rec
    rec.lang = SPEECH_LANG
    rec.continuous = true
    rec.interimResults = true
    rec.maxAlternatives = 1
    if (opts.onDevice) rec.processLocally = true
    finals = ''
    interim = ''
    sessionConfidences = []
    rec.onresult = (e) => {
      let f = ''
      let i = ''
      const conf: number[] = []
      for (let r = 0; r < e.results.length; r++) {
        const result = e.results[r]!
        const alt = result[0]
        if (!alt) continue
        if (result.isFinal) {
          f += alt.transcript + ' '
          if (alt.confidence > 0) conf.push(alt.confidence)
        } else i += alt.transcript + ' '
      }
      finals = f.trim()
      interim = i.trim()
      sessionConfidences = conf
      caption()
    }
    rec.onerror = (e) => {
      if (FATAL.includes(e.error)) fail(e.error === 'audio-capture' || e.error === 'bad-grammar' ? 'other' : (e.error as ListenFailure))
      // 'no-speech' (a silence) and 'aborted' (our own stop) end the session; onend decides.
    }
    rec.onend = () => {
      committed = mergeSeam(committed, mergeSeam(finals, stopping ? interim : ''))
      confidences.push(...sessionConfidences)
      finals = ''
      interim = ''
      sessionConfidences = []
      if (stopping || failed) {
        current = null
        ended?.()
        return
      }
      begin() // ended by itself mid-answer: listen on
    }
    try {
      if (opts.track) rec.start(opts.track)
      else rec.start()
    } catch {
      // An older browser refuses the track: listen to the default microphone.
      try {
        rec.start()
      } catch {
        fail('other')
      }
    }
  }
  begin()

  return {
    heardSoFar: () => (failed ? '' : mergeSeam(committed, finals)),
    async stop() {
      stopping = true
      if (current && !failed) {
        const done = new Promise<void>((resolve) => (ended = resolve))
        current.stop()
        // A recogniser that never ends is given up on after 2 s.
        await Promise.race([done, new Promise((r) => setTimeout(r, 2000))])
      }
      if (failed) return { failed }
      const text = mergeSeam(committed, mergeSeam(finals, interim)).trim()
      if (text === '') {
        opts.onFail?.('no-result')
        return { failed: 'no-result' }
      }
      const heard: BrowserHeard = { text, onDevice: opts.onDevice }
      if (confidences.length > 0) heard.confidence = Math.min(1, Math.max(0, confidences.reduce((s, c) => s + c, 0) / confidences.length))
      return { heard }
    },
    abort() {
      stopping = true
      current?.abort()
    },
  }
}
