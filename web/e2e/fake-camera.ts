import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base } from './fixtures'
import { launchWithFakeMedia, speakLooped } from './speaking'

/**
 * A fake camera for the video-delivery specs (issue 42): a Y4M video,
 * which Chromium plays at its own frame rate from the moment a page opens
 * the camera and loops, made from the public-domain NASA portrait of
 * Eileen Collins (FACE_PHOTO, which `make test-e2e` fetches from Debian's
 * python3-skimage sample data).
 *
 * - facing: the portrait, her face in the middle of the frame, looking at
 *   the camera.
 * - turned: the same face turned 35° to her left. A flat warp of a photo
 *   does not turn a head for the face mesh (the nose stays between the
 *   cheeks), so the face is wrapped round a cylinder and turned: the nose
 *   moves toward one cheek as on a real head.
 * - nobody: a part of the picture with no face in it.
 */
export type Shot = 'facing' | 'turned' | 'nobody'

export const CAMERA_FPS = 10

/** The frame is made at 640×480 (where the geometry below is measured), then sent at 320×240. */
const FRAME = 'crop=384:288:33:0,scale=640:480'
/** The head as a cylinder: its axis at x = 320, radius 110 px, from y = 70 to 340 (forehead to neck). */
const turn = (degrees: number) => {
  const source = `if(lt(abs(X-320)\\,110)*between(Y\\,70\\,340)\\, 320+110*sin(asin((X-320)/110)-${degrees}*PI/180)\\, X)`
  return `format=rgb24,geq=r='r(${source}\\,Y)':g='g(${source}\\,Y)':b='b(${source}\\,Y)'`
}
const SHOTS: Record<Shot, string> = {
  facing: FRAME,
  turned: `${FRAME},${turn(35)}`,
  // The flag's stripes and the shuttle's corner: no face anywhere.
  nobody: 'crop=128:96:0:300,scale=640:480',
}

export function facePhoto(): string {
  const photo = process.env.FACE_PHOTO ?? join(import.meta.dirname, '.media', 'astronaut.png')
  if (!existsSync(photo)) throw new Error(`No face photo at ${photo}: run the specs with \`make test-e2e\`, which fetches it.`)
  return photo
}

/** Writes the camera's loop, each shot held for its seconds, as a Y4M file in dir. */
export function cameraLoop(dir: string, shots: readonly { shot: Shot; seconds: number }[]): string {
  const photo = facePhoto()
  const inputs: string[] = []
  shots.forEach(({ shot, seconds }, i) => {
    const png = join(dir, `shot-${i}.png`)
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', photo, '-vf', SHOTS[shot], png])
    inputs.push('-loop', '1', '-framerate', String(CAMERA_FPS), '-t', String(seconds), '-i', png)
  })
  const video = join(dir, 'camera.y4m')
  const joined = shots.map((_, i) => `[${i}:v]`).join('')
  execFileSync('ffmpeg', [
    '-nostdin', '-loglevel', 'error', '-y', ...inputs,
    '-filter_complex', `${joined}concat=n=${shots.length}:v=1:a=0,scale=320:240,fps=${CAMERA_FPS},format=yuv420p`,
    '-f', 'yuv4mpegpipe', video,
  ])
  return video
}

/**
 * The fixtures with a browser whose fake camera plays shots in a loop and
 * whose fake microphone says answer (looped), made once per worker.
 */
export function cameraTest(answer: string, shots: readonly { shot: Shot; seconds: number }[]) {
  return base.extend<object, { media: { wav: string; video: string } }>({
    media: [
      async ({}, use) => {
        const dir = mkdtempSync(join(tmpdir(), 'whitecoat-camera-'))
        const wav = join(dir, 'answer.wav')
        speakLooped(dir, answer, wav)
        await use({ wav, video: cameraLoop(dir, shots) })
        rmSync(dir, { recursive: true, force: true })
      },
      { scope: 'worker' },
    ],
    browser: [
      async ({ media, launchOptions }, use) => {
        const browser = await launchWithFakeMedia(launchOptions, [
          `--use-file-for-fake-audio-capture=${media.wav}`,
          `--use-file-for-fake-video-capture=${media.video}`,
        ])
        await use(browser)
        await browser.close()
      },
      { scope: 'worker' },
    ],
  })
}
