/**
 * Deterministic example arguments for a JSON Schema: every declared property filled (optional ones too, as a model
 * that fills a form completely would), the first `enum`/`const`/union branch, bounds and formats respected. Used
 * for MCP tools, whose schemas come from real servers and so cannot have hand-written arguments. The caller checks
 * the result with a real validator and falls back to `{ required: 'only' }`; this module never claims validity.
 */
type Schema = Readonly<Record<string, unknown>>

export interface ExampleOptions {
  /** `all` fills every declared property; `only` fills just the required ones. */
  readonly required?: 'all' | 'only'
}

const MAX_DEPTH = 16

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const FORMATS: Readonly<Record<string, string>> = {
  uri: 'https://example.com/docs/page',
  url: 'https://example.com/docs/page',
  email: 'dev@example.com',
  'date-time': '2026-11-29T12:00:00Z',
  date: '2026-11-29',
  time: '12:00:00Z',
  uuid: '3f1c2a9e-8b4d-4f6a-9c1e-2d7b5a0e4c31',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
}

function exampleString(schema: Schema, key: string): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
  let text = format ?? `example ${key || 'value'}`
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY
  while (text.length < min) text += ' text'
  return text.slice(0, max)
}

function exampleNumber(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined
  let value = min ?? (integer ? 3 : 2.5)
  if (max !== undefined && value > max) value = max
  return integer ? Math.ceil(value) : value
}

function firstType(schema: Schema): string | undefined {
  const { type } = schema
  if (typeof type === 'string') return type
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') ?? type[0]
  if (isSchema(schema.properties)) return 'object'
  if (schema.items !== undefined) return 'array'
  return undefined
}

function exampleObject(schema: Schema, options: ExampleOptions, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(properties)) {
    if (options.required === 'only' && !required.includes(key)) continue
    out[key] = exampleValue(child, key, options, depth + 1)
  }
  for (const key of required) if (!(key in out)) out[key] = `example ${key}`
  if (Object.keys(properties).length === 0 && isSchema(schema.additionalProperties)) {
    out['text/plain'] = exampleValue(schema.additionalProperties, 'entry', options, depth + 1)
  }
  return out
}

function exampleValue(schema: unknown, key: string, options: ExampleOptions, depth: number): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return `example ${key}`
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = schema[union]
    if (Array.isArray(branches) && branches.length > 0) return exampleValue(branches[0], key, options, depth)
  }
  switch (firstType(schema)) {
    case 'object':
      return exampleObject(schema, options, depth)
    case 'array': {
      const count = Math.max(2, typeof schema.minItems === 'number' ? schema.minItems : 0)
      const length = Math.min(count, typeof schema.maxItems === 'number' ? schema.maxItems : count)
      return Array.from({ length }, (_, index) =>
        exampleValue(schema.items, `${key} ${index + 1}`, options, depth + 1),
      )
    }
    case 'integer':
      return exampleNumber(schema, true)
    case 'number':
      return exampleNumber(schema, false)
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return exampleString(schema, key)
  }
}

/** Example arguments for an object-rooted `schema`. */
export function exampleArguments(schema: unknown, options: ExampleOptions = {}): Record<string, unknown> {
  const value = exampleValue(schema, '', { required: options.required ?? 'all' }, 0)
  return isSchema(value) ? { ...value } : {}
}
