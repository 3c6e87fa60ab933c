// Writes src/api/failures.ts from openapi.json's x-failures: each failure
// the server tells apart, with its problem type and the words the spec
// gives it, keyed by name, so that the web decides by type or status and
// never copies the words. Run by `npm run generate`.
import { readFileSync, writeFileSync } from 'node:fs'

const [input = 'openapi.json', output = 'src/api/failures.ts'] = process.argv.slice(2)
const doc = JSON.parse(readFileSync(input, 'utf8'))

const camel = (name) => name.replace(/-(.)/g, (_, c) => c.toUpperCase())

const entries = Object.entries(doc['x-failures'] ?? {})
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, { type, message }]) => {
    if (typeof type !== 'string' || typeof message !== 'string') throw new Error(`generate-failures: ${name} lacks a type or a message`)
    return `  ${camel(name)}: {\n    type: ${JSON.stringify(type)},\n    message: ${JSON.stringify(message)},\n  },`
  })

writeFileSync(
  output,
  `// Generated from openapi.json by scripts/generate-failures.mjs (npm run generate): do not edit.
// The failures the server tells apart: the problem type it answers with, and the spec's words for each.

export const failures = {
${entries.join('\n')}
} as const
`,
)
