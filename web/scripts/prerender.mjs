// Prerenders the public pages into dist/ after `vite build` (npm run
// build): each page's HTML, rendered with React's server renderer
// (src/app/prerender.tsx) into dist/index.html's root, is written to the
// directory of its path (dist/dental/pricing/index.html), where the Go
// server finds it, fills in the values its configuration decides and
// serves it; the browser then hydrates it. The pages and the responses
// they render from come from the Go server's own code
// (`whitecoat public-pages`), so the build needs Go, as `make` does.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'vite'

const web = fileURLToPath(new URL('..', import.meta.url))
const dist = join(web, 'dist')
const bundle = join(web, 'node_modules', '.prerender')
const ROOT = '<div id="root"></div>'

/**
 * shell with its module scripts loaded by scripts/load-on-first-input.js
 * once the visitor first acts on the page, instead of from its head: a
 * prerendered page reads and links without them.
 */
function loadOnFirstInput(shell) {
  let entry
  const preload = []
  const page = shell.replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>|\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_, src, href) => {
    if (src) entry = src
    else preload.push(href)
    return ''
  })
  if (!entry) throw new Error('dist/index.html has no module script')
  const loader = readFileSync(join(web, 'scripts', 'load-on-first-input.js'))
  const name = `assets/load-on-first-input-${createHash('sha256').update(loader).digest('hex').slice(0, 8)}.js`
  writeFileSync(join(dist, name), loader)
  return page.replace('</head>', `  <script defer src="/${name}" data-entry="${entry}" data-preload="${preload.join(' ')}"></script>\n  </head>`)
}

await build({ root: web, logLevel: 'warn', build: { ssr: 'src/app/prerender.tsx', outDir: bundle, emptyOutDir: true } })
try {
  const { pages } = JSON.parse(
    execFileSync(process.env.GO ?? 'go', ['run', './cmd/whitecoat', 'public-pages'], { cwd: join(web, '..'), encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'inherit'] }),
  )
  const { renderPage } = await import(pathToFileURL(join(bundle, 'prerender.js')).href)
  const shell = readFileSync(join(dist, 'index.html'), 'utf8')
  if (shell.split(ROOT).length !== 2) throw new Error(`dist/index.html must hold ${ROOT} once`)
  const template = loadOnFirstInput(shell)
  for (const page of pages) {
    // React writes a page's <title> ahead of its HTML; the server writes
    // the head's, which React takes over, so it would only linger in the body.
    const body = (await renderPage(page.path, page.responses)).replace(/^<title>[^<]*<\/title>/, '')
    // A token (a number between U+E000 and U+E001) the app changed on
    // the way, or cut, would reach the visitor as it is.
    const broken = body.match(/\uE000(?!\d+\uE001)|(?<!\uE000\d+)\uE001/u)
    if (broken) throw new Error(`${page.path}: a server value was altered while rendering, near ${JSON.stringify(body.slice(Math.max(0, broken.index - 80), broken.index + 80))}`)
    const html = template
      .replace('</head>', `  <meta name="whitecoat-prerender" content="${page.fingerprint}" />\n  </head>`)
      // (a function: the words may hold "$&", which a replacement string expands)
      .replace(ROOT, () => `<div id="root">${body}</div>`)
    mkdirSync(join(dist, page.path), { recursive: true })
    writeFileSync(join(dist, page.path, 'index.html'), html)
  }
  console.log(`prerendered ${pages.length} public pages`)
} finally {
  rmSync(bundle, { recursive: true, force: true })
}
