// Resolves the app's imports for eslint-plugin-import's boundary rule: the
// "@/" alias (vite.config.ts and tsconfig.app.json map it to src/) and
// relative paths, to .ts/.tsx files or folder index files. Bare package
// names are left unresolved; the rule only looks at our own folders. A
// resolver of our own keeps native binaries out of the lint toolchain.
const { existsSync, statSync } = require('node:fs')
const path = require('node:path')

const src = path.resolve(__dirname, '..', 'src')
const candidates = (base) => [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]

exports.interfaceVersion = 2

exports.resolve = (source, file) => {
  let base
  if (source.startsWith('@/')) base = path.join(src, source.slice(2))
  else if (source.startsWith('.')) base = path.resolve(path.dirname(file), source)
  else return { found: false }
  const found = candidates(base).find((p) => existsSync(p) && statSync(p).isFile())
  return found ? { found: true, path: found } : { found: false }
}
