/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'

// The browser's build, not the prerender's (scripts/prerender.mjs).
const browserBuild: Plugin['apply'] = (_, env) => env.command === 'build' && !env.isSsrBuild

// dist/.gitkeep is tracked so that go:embed always finds the directory, even
// before the first build; put it back after Vite empties dist.
function keepDist(): Plugin {
  return {
    name: 'whitecoat-keep-dist',
    apply: browserBuild,
    closeBundle() {
      writeFileSync(fileURLToPath(new URL('./dist/.gitkeep', import.meta.url)), '')
    },
  }
}

// Text assets are written a second and third time, gzip- and
// brotli-compressed at their strongest, so the Go server can send the
// smaller copy a browser accepts without compressing on every request.
// Files too small to gain are left alone.
const compressible = /\.(js|css|svg|json|txt|html|webmanifest)$/
const minCompressBytes = 1024

/**
 * Writes path.gz and path.br beside path. Brotli's strongest setting takes
 * tens of seconds on a file of megabytes for a few percent more: large
 * files get a quicker one. A copy that saves under a tenth is not kept.
 */
function writeCompressed(path: string) {
  const data = readFileSync(path)
  const quality = data.length > 1 << 20 ? 9 : zlib.BROTLI_MAX_QUALITY
  const gz = gzipSync(data, { level: 9 })
  const br = brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } })
  if (br.length > data.length * 0.9) return
  writeFileSync(`${path}.gz`, gz)
  writeFileSync(`${path}.br`, br)
}

function precompress(): Plugin {
  return {
    name: 'whitecoat-precompress',
    apply: browserBuild,
    closeBundle() {
      const assets = fileURLToPath(new URL('./dist/assets', import.meta.url))
      for (const name of readdirSync(assets)) {
        const path = join(assets, name)
        if (!compressible.test(name) || statSync(path).size < minCompressBytes) continue
        writeCompressed(path)
      }
    },
  }
}

// The face mesh of issue 42 runs in a sandboxed frame under its own policy
// (sandbox/face-mesh/frame.js says why), served by our binary from
// dist/sandbox/face-mesh/<version>/: the pinned package's files the
// browser loads (both WebAssembly builds: the SIMD one where the browser
// has SIMD, the other elsewhere) and the frame's own page and script.
const faceMeshPackage = fileURLToPath(new URL('./node_modules/@mediapipe/face_mesh/', import.meta.url))
const faceMeshVersion: string = JSON.parse(readFileSync(join(faceMeshPackage, 'package.json'), 'utf8')).version
const faceMeshFiles = [
  'face_mesh.js',
  'face_mesh.binarypb',
  'face_mesh_solution_packed_assets.data',
  'face_mesh_solution_packed_assets_loader.js',
  'face_mesh_solution_simd_wasm_bin.js',
  'face_mesh_solution_simd_wasm_bin.wasm',
  'face_mesh_solution_wasm_bin.js',
  'face_mesh_solution_wasm_bin.wasm',
]
const faceMeshFrameFiles = ['frame.html', 'frame.js']

function sandboxFaceMesh(): Plugin {
  return {
    name: 'whitecoat-sandbox-face-mesh',
    apply: browserBuild,
    closeBundle() {
      const out = fileURLToPath(new URL(`./dist/sandbox/face-mesh/${faceMeshVersion}/`, import.meta.url))
      mkdirSync(out, { recursive: true })
      for (const name of faceMeshFiles) copyFileSync(join(faceMeshPackage, name), join(out, name))
      const frame = fileURLToPath(new URL('./sandbox/face-mesh/', import.meta.url))
      for (const name of faceMeshFrameFiles) copyFileSync(join(frame, name), join(out, name))
      for (const name of readdirSync(out)) {
        if (/\.(js|html|wasm|data)$/.test(name) && statSync(join(out, name)).size >= minCompressBytes) writeCompressed(join(out, name))
      }
    },
  }
}

export default defineConfig({
  plugins: [react(), tailwindcss(), keepDist(), precompress(), sandboxFaceMesh()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()), __FACE_MESH_VERSION__: JSON.stringify(faceMeshVersion) },
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Framework code changes less often than ours: separate, long-cached chunks.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router)[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Typing with user-event is slow on a loaded 2-core CI machine; a
    // timeout is a verdict on the machine, not the code.
    testTimeout: 30_000,
    // The test files share a worker's modules and jsdom instead of each
    // loading its own: that loading was 60 % of the suite's CPU (111 s of
    // CPU against 45 s here), and CI runs this suite beside the browser
    // tests on two cores. Each test still renders a fresh app with its own
    // query client; setup.ts clears the DOM and storage after every test.
    isolate: false,
    // One copy of react-router for both 'react-router' and 'react-router/dom'
    // (Node's conditions would otherwise mix its CommonJS and ESM builds).
    alias: [
      { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/development/index.mjs', import.meta.url)) },
      { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/development/dom-export.mjs', import.meta.url)) },
    ],
  },
})
