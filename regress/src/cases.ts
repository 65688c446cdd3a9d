import type { CordisPlugin } from './dsh-session.ts'
import { rawTool, toolPlugin } from './tool-plugin.ts'

/**
 * The known failures, each as the plugin that caused it. A `broken` case is a `fix` row: stock DSH was observed
 * failing the session, the overlay refuses the plugin at load and the session works. The `valid` case is a `guard`
 * row: it works both ways with the tool's parameters unchanged on the wire.
 */
export interface RegressionCase {
  readonly id: string
  readonly source: string
  readonly kind: 'broken' | 'valid'
  /** What the tool's `parameters` are, for the row's "proves" sentence. */
  readonly declares: string
  readonly tool: string
  readonly plugin: string
  readonly parameters: unknown
}

const validParameters = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', description: 'File to read, relative to the workspace' },
    range: {
      type: 'object',
      properties: { start: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } },
      required: ['start'],
    },
    encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
}

export const REGRESSION_CASES: readonly RegressionCase[] = [
  {
    id: 'bare-table-297',
    declares: 'a bare property table as parameters',
    source: 'DSH #297 (dsh-image-vision vision_query)',
    kind: 'broken',
    tool: 'vision_query',
    plugin: 'dsh-image-vision',
    parameters: {
      images: { type: 'array', items: { type: 'string' }, description: 'Image paths or URLs' },
      prompt: { type: 'string', description: 'What to ask about the images' },
    },
  },
  {
    id: 'bare-table-447',
    declares: 'a bare property table as parameters',
    source: 'DSH #447 (cmd)',
    kind: 'broken',
    tool: 'cmd',
    plugin: 'dsh-cmd',
    parameters: { command: { type: 'string', description: 'Command line to run' }, cwd: { type: 'string' } },
  },
  {
    id: 'required-true-in-property',
    declares: '`required: true` inside a property',
    source: 'DSH #297 follow-up (image-vision 0.1.1)',
    kind: 'broken',
    tool: 'vision_describe',
    plugin: 'dsh-image-vision',
    parameters: {
      type: 'object',
      properties: {
        images: { type: 'array', items: { type: 'string' }, required: true },
        prompt: { type: 'string' },
      },
    },
  },
  {
    id: 'parameters-with-function',
    declares: 'a function inside its parameters',
    source: 'research dsh-tools.md §7(g): DataCloneError',
    kind: 'broken',
    tool: 'transform_text',
    plugin: 'dsh-text-tools',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', transform: (value: string) => value.trim() } },
    },
  },
  {
    id: 'parameters-missing',
    declares: 'no parameters at all',
    source: 'research dsh-tools.md §7(g): no parameters',
    kind: 'broken',
    tool: 'list_notes',
    plugin: 'dsh-notes',
    parameters: undefined,
  },
  {
    id: 'root-type-array',
    declares: 'a root `type` list (["object","null"])',
    source: 'research dsh-tools.md §7(a7): root type list',
    kind: 'broken',
    tool: 'maybe_query',
    plugin: 'dsh-query',
    parameters: { type: ['object', 'null'], properties: { q: { type: 'string' } } },
  },
  {
    id: 'root-anyof',
    declares: 'a root `anyOf` without `type: "object"`',
    source: 'anchors-schema.md §3: root union',
    kind: 'broken',
    tool: 'lookup',
    plugin: 'dsh-lookup',
    parameters: {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      ],
    },
  },
  {
    id: 'valid-tool-unchanged',
    declares: 'a valid JSON Schema with nested objects, enums, defaults and arrays',
    source: 'control',
    kind: 'valid',
    tool: 'read_range',
    plugin: 'dsh-reader',
    parameters: validParameters,
  },
]

export function pluginFor(testCase: RegressionCase): CordisPlugin {
  return toolPlugin(testCase.plugin, rawTool(testCase.tool, testCase.parameters))
}

/** A well-formed tool that is always loaded, so a run shows whether the rest of the session still works. */
export const BASELINE_PLUGIN: CordisPlugin = toolPlugin(
  'dsh-baseline',
  rawTool('echo', { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
)
