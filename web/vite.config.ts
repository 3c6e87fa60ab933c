/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
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

function precompress(): Plugin {
  return {
    name: 'whitecoat-precompress',
    apply: browserBuild,
    closeBundle() {
      const assets = fileURLToPath(new URL('./dist/assets', import.meta.url))
      for (const name of readdirSync(assets)) {
        const path = join(assets, name)
        if (!compressible.test(name) || statSync(path).size < minCompressBytes) continue
        const data = readFileSync(path)
        writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }))
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(data, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        )
      }
    },
  }
}

export default defineConfig({
  plugins: [react(), tailwindcss(), keepDist(), precompress()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
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
    // One copy of react-router for both 'react-router' and 'react-router/dom'
    // (Node's conditions would otherwise mix its CommonJS and ESM builds).
    alias: [
      { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/development/index.mjs', import.meta.url)) },
      { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/development/dom-export.mjs', import.meta.url)) },
    ],
  },
})
