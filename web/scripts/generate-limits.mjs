// Writes src/api/limits.ts from openapi.json: every limit and enumeration
// the server declares on a request (a JSON body's properties, a binary
// body, query parameters), keyed by operation, and those of each named
// schema (what responses carry too, such as a scale's bounds), so that the
// web never repeats one as a second literal. Run by `npm run generate`.
import { readFileSync, writeFileSync } from 'node:fs'

const [input = 'openapi.json', output = 'src/api/limits.ts'] = process.argv.slice(2)
const doc = JSON.parse(readFileSync(input, 'utf8'))

// The JSON Schema keywords that limit a value.
const KEYWORDS = ['enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems']

function resolve(schema) {
  while (schema?.$ref) {
    schema = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, key) => node?.[key], doc)
    if (!schema) throw new Error(`generate-limits: unresolved $ref`)
  }
  return schema
}

/**
 * The limits of a schema and of its properties and items, or undefined when
 * it has none. With `own`, a property or item that refers to another named
 * schema is left out: that schema's limits are listed under its own name.
 */
function limitsOf(schema, where, own = false) {
  schema = resolve(schema)
  if (!schema) return undefined
  const out = {}
  for (const keyword of KEYWORDS) if (schema[keyword] !== undefined) out[keyword] = schema[keyword]
  const nested = { ...schema.properties, ...(schema.items ? { items: schema.items } : {}) }
  for (const [name, child] of Object.entries(nested)) {
    if (name in out) throw new Error(`generate-limits: ${where}: property ${name} shadows a keyword`)
    if (own && child?.$ref) continue
    const limits = limitsOf(child, `${where}.${name}`, own)
    if (limits) out[name] = limits
  }
  return Object.keys(out).length ? out : undefined
}

/**
 * A request body's limits: its JSON schema's, or for a binary body (one
 * schema per media type) the limits its media types declare, which must agree.
 */
function bodyLimits(requestBody, where) {
  const body = resolve(requestBody)
  if (!body?.content) return undefined
  const json = body.content['application/json']
  if (json) return limitsOf(json.schema, where)
  const declared = Object.values(body.content)
    .map((media) => limitsOf(media.schema, where))
    .filter(Boolean)
  if (new Set(declared.map((l) => JSON.stringify(l))).size > 1) throw new Error(`generate-limits: ${where}: media types declare different limits`)
  return declared[0]
}

const camel = (id) => id.replace(/[-_](.)/g, (_, c) => c.toUpperCase())

const operations = {}
for (const [path, item] of Object.entries(doc.paths ?? {})) {
  for (const [method, op] of Object.entries(item)) {
    if (!op?.operationId) continue
    const where = `${method.toUpperCase()} ${path}`
    const limits = {}
    const body = op.requestBody && bodyLimits(op.requestBody, `${where} body`)
    if (body) limits.body = body
    const query = {}
    for (const param of (op.parameters ?? []).map(resolve)) {
      const l = param.in === 'query' && limitsOf(param.schema, `${where} ?${param.name}`)
      if (l) query[param.name] = l
    }
    if (Object.keys(query).length) limits.query = query
    if (Object.keys(limits).length) operations[camel(op.operationId)] = limits
  }
}

const sorted = Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b)))

const schemas = {}
for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
  const limits = limitsOf(schema, `schema ${name}`, true)
  if (limits) schemas[name] = limits
}

function literal(value, indent) {
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(', ')}]`
  if (value && typeof value === 'object') {
    const inner = `${indent}  `
    const entries = Object.entries(value).map(([k, v]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)},`)
    return `{\n${entries.join('\n')}\n${indent}}`
  }
  return JSON.stringify(value)
}

writeFileSync(
  output,
  `// Generated from openapi.json by scripts/generate-limits.mjs (npm run generate): do not edit.
// The limits and enumerations each request declares, keyed by operation id.

export const limits = ${literal(sorted, '')} as const

// The limits and enumerations of each named schema, requests' and responses'
// alike: its own properties (one that refers to another named schema is listed under that name).
export const schemaLimits = ${literal(schemas, '')} as const
`,
)
