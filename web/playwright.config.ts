import { defineConfig, devices } from '@playwright/test'

/**
 * End-to-end tests against the real whitecoat binary on a temporary SQLite
 * database, with a real SMTP server in the test process (see
 * e2e/global-setup.ts). The browser is Debian's Chromium; Playwright's own
 * browser downloads are never used.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Chromium features the tests run without. Headless Chromium opens two
 * WebUI omnibox popups, each a page of its own, for every window, so for
 * every page a test opens; no test uses them, and they cost CPU that the
 * pages under test need. Chromium reads only the last --disable-features,
 * so Playwright's own list (playwright-core 1.65, chromiumSwitches.ts),
 * which this one replaces, comes first.
 */
const playwrightDisabledFeatures =
  'AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,' +
  'PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch'
const disabledFeatures = `${playwrightDisabledFeatures},WebUIOmniboxPopup,WebUIOmniboxAimPopup`

/** The specs whose pages run the face mesh (issue 42). */
const FACE_MESH_SPECS = /video-delivery\.spec\.ts/

const chromiumUse = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', `--disable-features=${disabledFeatures}`, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
}

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // One retry in CI: a test that passes only on retry is reported as
  // "flaky" in the output, so it stays visible without blocking a landing.
  retries: process.env.CI ? 1 : 0,
  // Two at once in CI: a third made the run no shorter on a 2-core
  // machine that also runs the Go tests (Chromium is most of its CPU).
  workers: process.env.CI ? 2 : 3,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // Pages run as for a student who asked for reduced motion: the recording
    // dot's pulse and the microphone meter's glide made Chromium draw every
    // frame while a microphone was open, about half the CPU of a recording
    // spec. The specs that look at motion itself (toasts sliding in and
    // fading, auth.spec and account.spec) ask for it back.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: FACE_MESH_SPECS,
      use: chromiumUse,
    },
    // The face mesh runs on Chromium's software GPU here, a frame every
    // second or more: two such specs at once starved each other of frames
    // (4 in a 20-s answer). They run one at a time, beside the other specs.
    {
      name: 'chromium-face-mesh',
      testMatch: FACE_MESH_SPECS,
      workers: 1,
      use: chromiumUse,
    },
  ],
})
