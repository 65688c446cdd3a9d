import type { ToolDefinition } from '@deepseek-ai/dsh-tools'

type Schema = Record<string, unknown>

/** mulberry32: a tiny seeded generator, so every run (and both sides of a run) registers the same tools. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SERVICES = ['github', 'jira', 'stripe', 'notion', 'slack', 'calendar', 'datadog', 's3', 'k8s', 'linear']
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'sync', 'export', 'archive', 'resolve']
const NOUNS = [
  'issue',
  'invoice',
  'customer',
  'branch',
  'deployment',
  'ticket',
  'document',
  'event',
  'metric',
  'dataset',
]
const STATES = ['open', 'closed', 'pending', 'archived', 'draft', 'failed', 'running']

/**
 * Property shapes seen in real MCP and plugin tool schemas: plain scalars with descriptions and bounds, enums,
 * formats, arrays of scalars and of objects, nested objects with their own `required`, and a union.
 */
const PROPERTY_SHAPES: readonly ((noun: string, pick: <T>(list: readonly T[]) => T) => Schema)[] = [
  (noun) => ({ type: 'string', description: `Identifier of the ${noun}.`, minLength: 1 }),
  (noun) => ({
    type: 'string',
    description: `Free-text query matched against ${noun} titles.`,
    maxLength: 256,
  }),
  (noun, pick) => ({
    type: 'string',
    description: `Only return ${noun}s in this state.`,
    enum: STATES.slice(0, 2 + STATES.indexOf(pick(STATES))),
  }),
  () => ({
    type: 'integer',
    description: 'Maximum number of results.',
    minimum: 1,
    maximum: 100,
    default: 20,
  }),
  () => ({ type: 'number', description: 'Minimum relevance score.', minimum: 0, maximum: 1 }),
  () => ({ type: 'boolean', description: 'Include archived entries.', default: false }),
  () => ({
    type: 'string',
    format: 'date-time',
    description: 'Only entries changed after this instant (RFC 3339).',
  }),
  () => ({
    type: 'array',
    items: { type: 'string' },
    uniqueItems: true,
    maxItems: 20,
    description: 'Labels to match.',
  }),
  (noun) => ({
    type: 'array',
    description: `Field filters applied to each ${noun}.`,
    items: {
      type: 'object',
      properties: {
        field: { type: 'string', description: 'Field name.' },
        op: { type: 'string', enum: ['eq', 'ne', 'lt', 'gt', 'contains'] },
        value: { type: 'string' },
      },
      required: ['field', 'value'],
      additionalProperties: false,
    },
  }),
  (noun, pick) => ({
    type: 'object',
    description: `Attributes of the ${noun} to set.`,
    properties: {
      title: { type: 'string', description: 'Display title.' },
      priority: { type: 'integer', minimum: 0, maximum: 4 },
      owner: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          kind: { type: 'string', enum: ['user', 'team', pick(['bot', 'app'])] },
        },
        required: ['id'],
      },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['title'],
  }),
  () => ({ anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'Page cursor or page number.' }),
]

function generateParameters(random: () => number, noun: string): Schema {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const count = 2 + Math.floor(random() * 6)
  const properties: Record<string, Schema> = {}
  for (let index = 0; index < count; index++) {
    const shape = pick(PROPERTY_SHAPES)
    properties[
      `${noun}_${pick(['id', 'query', 'state', 'limit', 'filter', 'options', 'since', 'labels'])}_${index}`
    ] = shape(noun, pick)
  }
  const names = Object.keys(properties)
  const required = names.slice(0, Math.floor(random() * 3))
  return { type: 'object', properties, required, additionalProperties: false }
}

const OUTPUT: ToolDefinition['output'] = {
  schema: { type: 'string' },
  render: (_args, value) => [{ type: 'text', text: String(value) }],
}

/** `count` distinct, valid third-party-style tool definitions with raw JSON Schema `parameters`. */
export function generateTools(count: number, seed = 1122): ToolDefinition[] {
  const random = seeded(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const tools: ToolDefinition[] = []
  for (let index = 0; index < count; index++) {
    const service = pick(SERVICES)
    const verb = pick(VERBS)
    const noun = pick(NOUNS)
    tools.push({
      name: `${service}_${verb}_${noun}_${index}`,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${noun} in ${service}.`,
      parameters: generateParameters(random, noun),
      output: OUTPUT,
      execute: async () => 'ok',
    })
  }
  return tools
}

/** A tool as a plugin declares it and an MCP server lists it: name, description, JSON Schema parameters. */
export interface ToolSpec {
  readonly name: string
  readonly description: string
  readonly parameters: Schema
}

/**
 * `count` small tools of the shape most plugin and MCP tools have: a required string, a bounded integer and a flag.
 * Descriptions carry the index, so no two schemas have the same text (a cache keyed by schema text gets no free hits).
 */
export function simpleToolSpecs(count: number, prefix = 'bench'): ToolSpec[] {
  const specs: ToolSpec[] = []
  for (let index = 0; index < count; index++) {
    specs.push({
      name: `${prefix}_tool_${index}`,
      description: `Look up entries in catalogue ${index}.`,
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: `Text matched against catalogue ${index}.` },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Maximum number of entries.' },
          verbose: { type: 'boolean', description: 'Include every field of each entry.' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    })
  }
  return specs
}

/** `simpleToolSpecs` as registrable definitions. */
export function simpleTools(count: number, prefix = 'bench'): ToolDefinition[] {
  return simpleToolSpecs(count, prefix).map((spec) => ({
    ...spec,
    output: OUTPUT,
    execute: async () => 'ok',
  }))
}
