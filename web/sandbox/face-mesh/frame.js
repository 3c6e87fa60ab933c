// @ts-check
// The face mesh of issue 42, in a sandboxed frame of its own
// (<iframe sandbox="allow-scripts">): the package compiles WebAssembly and
// generates functions at run time, which the app's own Content Security
// Policy refuses, so it runs here under the sandbox's policy (httpx
// SandboxDir), with an opaque origin and no way into the app.
//
// The app (src/lib/face-watch/face-mesh.ts) posts camera frames as
// ImageBitmaps; each gets back the 478 landmarks (x, y, z per point,
// normalized to the frame), or null when no face was found, and the
// frame's mean brightness. Nothing leaves this frame but to the app.
'use strict'

/** Brightness is measured on a thumbnail: the mean luma of its pixels. */
const THUMB_WIDTH = 32
const THUMB_HEIGHT = 24

/** @type {any} */
let lastResults = null
const mesh = new FaceMesh({ locateFile: (/** @type {string} */ file) => new URL(file, location.href).href })
mesh.setOptions({ maxNumFaces: 1, refineLandmarks: true, minDetectionConfidence: 0.5, minTrackingConfidence: 0.5 })
mesh.onResults((/** @type {any} */ results) => {
  lastResults = results
})

const thumb = document.createElement('canvas')
thumb.width = THUMB_WIDTH
thumb.height = THUMB_HEIGHT
const thumbContext = /** @type {CanvasRenderingContext2D} */ (thumb.getContext('2d', { willReadFrequently: true }))

/** @param {CanvasImageSource} image */
function brightness(image) {
  thumbContext.drawImage(image, 0, 0, THUMB_WIDTH, THUMB_HEIGHT)
  const { data } = thumbContext.getImageData(0, 0, THUMB_WIDTH, THUMB_HEIGHT)
  let sum = 0
  for (let i = 0; i < data.length; i += 4) sum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]
  return sum / (data.length / 4)
}

/** @param {any} image */
async function analyze(image) {
  lastResults = null
  await mesh.send({ image })
  const face = lastResults && lastResults.multiFaceLandmarks && lastResults.multiFaceLandmarks[0]
  if (!face) return null
  const points = new Float32Array(face.length * 3)
  face.forEach((/** @type {{x: number, y: number, z: number}} */ p, /** @type {number} */ i) => points.set([p.x, p.y, p.z], i * 3))
  return points
}

// Ready once the model is loaded and has run once: the first frame
// compiles the graph's shaders, which takes seconds on a slow device, so
// it is done while the student reads the question.
const ready = (async () => {
  await mesh.initialize()
  const blank = document.createElement('canvas')
  blank.width = 64
  blank.height = 48
  const context = /** @type {CanvasRenderingContext2D} */ (blank.getContext('2d'))
  context.fillRect(0, 0, 64, 48)
  await analyze(blank)
})()

ready.then(
  () => parent.postMessage({ type: 'ready' }, '*'),
  (err) => parent.postMessage({ type: 'failed', reason: String(err) }, '*'),
)

addEventListener('message', async (event) => {
  if (event.source !== parent) return
  const { id, image } = event.data || {}
  if (typeof id !== 'number' || !(image instanceof ImageBitmap)) return
  try {
    await ready
    const light = brightness(image)
    const points = await analyze(image)
    parent.postMessage({ type: 'result', id, points, brightness: light }, '*', points ? [points.buffer] : [])
  } catch (err) {
    parent.postMessage({ type: 'failed', id, reason: String(err) }, '*')
  } finally {
    image.close()
  }
})
