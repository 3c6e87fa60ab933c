import type { FaceMesh } from './face-mesh'
import { observe, type Observation } from './observe'
import { summarize, UNAVAILABLE, type VideoDelivery } from './summarize'

/**
 * Watches the student while they answer on camera (issue 42): a few frames
 * a second go to the face mesh, and when the answer ends the frames are
 * summed up into the numbers the server is sent. The recording itself is
 * untouched; a model that failed to load, or a frame that fails, never
 * stops it.
 */
export interface FaceWatch {
  /** Ends the watch: what was measured, or UNAVAILABLE when the face mesh could not run. */
  stop(): Promise<VideoDelivery>
}

/**
 * Pacing: at most FRAMES_PER_SECOND, and the mesh kept busy at most
 * MAX_BUSY of the time, so that on a slow device (or one without a GPU)
 * the page stays responsive and the recorder keeps its frames.
 */
export const FRAMES_PER_SECOND = 4
export const MAX_BUSY = 0.5
/** The frame is scaled to this width before it is analyzed: the model looks at 192 px of face. */
export const ANALYZED_WIDTH = 320
/**
 * Stopping waits this long at most for a frame being analyzed: the answer
 * is saved at once whatever the mesh is doing (still loading, say).
 */
const STOP_WAIT_MS = 1500

export interface WatchOptions {
  /** The clock, in milliseconds (performance.now). */
  now?: () => number
}

export function watchFace(stream: MediaStream, mesh: Promise<FaceMesh>, { now = () => performance.now() }: WatchOptions = {}): FaceWatch {
  const started = now()
  const frames: Observation[] = []
  let stopped = false
  let failed = false
  let wake: (() => void) | null = null
  const video = document.createElement('video')
  video.muted = true
  video.playsInline = true
  video.srcObject = stream
  // Frames are scaled on a canvas: Safari's createImageBitmap ignores the
  // resize options other browsers take.
  const canvas = document.createElement('canvas')
  const context = canvas.getContext('2d')

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = window.setTimeout(resolve, ms)
      wake = () => {
        window.clearTimeout(timer)
        resolve()
      }
    })

  const loop = (async () => {
    let model: FaceMesh
    try {
      model = await mesh
      await video.play()
    } catch {
      failed = true
      return
    }
    while (!stopped) {
      const began = now()
      if (context && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
        try {
          canvas.width = ANALYZED_WIDTH
          canvas.height = Math.round((ANALYZED_WIDTH * video.videoHeight) / video.videoWidth)
          context.drawImage(video, 0, 0, canvas.width, canvas.height)
          const image = await createImageBitmap(canvas)
          const at = (began - started) / 1000
          const { points, brightness } = await model.analyze(image)
          if (!stopped) frames.push(observe(at, points, brightness))
        } catch {
          failed = frames.length === 0
          return
        }
      }
      const cost = now() - began
      await pause(Math.max(1000 / FRAMES_PER_SECOND - cost, cost * (1 / MAX_BUSY - 1)))
    }
  })()

  return {
    async stop() {
      const end = (now() - started) / 1000
      stopped = true
      wake?.()
      await Promise.race([loop, new Promise((resolve) => window.setTimeout(resolve, STOP_WAIT_MS))])
      video.srcObject = null
      // No frame at all from a model that works (a very short answer, or
      // the model still loading) is a measurement of too few frames.
      return failed ? UNAVAILABLE : summarize(frames, end)
    },
  }
}
