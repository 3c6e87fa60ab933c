/**
 * The face mesh, running in its sandboxed frame (web/sandbox/face-mesh):
 * served by our binary under its pinned version, loaded once per page and
 * only for video sessions, while the student reads the question.
 */

/** What the frame found in one camera frame. */
export interface Analyzed {
  /** The landmarks (x, y, z per point), or null when no face was found. */
  points: Float32Array | null
  /** The frame's mean luma, 0-255. */
  brightness: number
}

export interface FaceMesh {
  analyze(image: ImageBitmap): Promise<Analyzed>
}

/** Where the frame is served (httpx.SandboxDir). */
export const FACE_MESH_FRAME = `/sandbox/face-mesh/${__FACE_MESH_VERSION__}/frame.html`

/**
 * A device that cannot load the model and run it once in this long (a
 * slow connection, a browser without WebGL that never answers) is given
 * up on: the answer is recorded all the same and says it was not measured.
 */
export const LOAD_TIMEOUT_MS = 60_000

type FromFrame =
  | { type: 'ready' }
  | { type: 'failed'; id?: number; reason: string }
  | { type: 'result'; id: number; points: Float32Array | null; brightness: number }

let loading: Promise<FaceMesh> | null = null

/**
 * The face mesh, loading it on first call; every later call gets the same
 * one. A failure to load is kept (another try would fail the same way
 * on this device) and never thrown at recording: callers record anyway.
 */
export function loadFaceMesh(): Promise<FaceMesh> {
  loading ??= open()
  return loading
}

function open(): Promise<FaceMesh> {
  const frame = document.createElement('iframe')
  // An opaque origin: the package's code runs without any way into the app.
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.src = FACE_MESH_FRAME
  frame.title = 'Face measurement'
  frame.hidden = true
  frame.tabIndex = -1
  frame.setAttribute('aria-hidden', 'true')
  const pending = new Map<number, { resolve: (a: Analyzed) => void; reject: (e: Error) => void }>()
  let nextId = 1
  return new Promise<FaceMesh>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error('The face measurement did not load in time.')), LOAD_TIMEOUT_MS)
    window.addEventListener('message', (event: MessageEvent<FromFrame>) => {
      if (event.source !== frame.contentWindow || typeof event.data !== 'object' || event.data === null) return
      const message = event.data
      switch (message.type) {
        case 'ready':
          window.clearTimeout(timer)
          resolve({
            analyze(image) {
              const id = nextId++
              return new Promise<Analyzed>((done, fail) => {
                pending.set(id, { resolve: done, reject: fail })
                frame.contentWindow?.postMessage({ id, image }, '*', [image])
              })
            },
          })
          break
        case 'failed':
          if (message.id === undefined) {
            window.clearTimeout(timer)
            reject(new Error(message.reason))
          } else {
            pending.get(message.id)?.reject(new Error(message.reason))
            pending.delete(message.id)
          }
          break
        case 'result':
          pending.get(message.id)?.resolve({ points: message.points, brightness: message.brightness })
          pending.delete(message.id)
          break
      }
    })
    document.body.append(frame)
  })
}
