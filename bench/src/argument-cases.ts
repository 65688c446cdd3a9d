import type { SizeLimits } from '@dsh-harden/tools'
import { DEFAULT_LIMITS } from '@dsh-harden/tools'
import { exampleArguments } from './example-args.ts'
import { collectFirstPartyTools } from './first-party-tools.ts'
import { loadMcpCorpus } from './mcp-corpus.ts'
import { createBareAjv } from './validators.ts'

/** One tool of a case: its declared parameters and arguments that already match them (nothing to normalize). */
export interface ArgumentTool {
  readonly name: string
  readonly source: string | undefined
  readonly parameters: unknown
  /** Deep-frozen, parsed from JSON text: what DSH hands a tool after reading a model's tool call. */
  readonly args: unknown
}

/** A set of tools whose arguments every validator under test checks, in order, `repetitions` times per sample. */
export interface ArgumentCase {
  readonly name: string
  readonly tools: readonly ArgumentTool[]
  /** Repetitions per sample where every side is a compiled validator (sized for about 1–3 ms of work). */
  readonly repetitions: number
  /** Repetitions per sample against DSH's interpreter, which is 40× to 6,000× slower (sized for 20–50 ms). */
  readonly dshRepetitions: number
  /** Root-contract limits for the contract; only the depth case needs more than the default. */
  readonly limits?: SizeLimits | undefined
  readonly notes: readonly string[]
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

/** As a model's tool call arrives: JSON text parsed, then deep-frozen by DSH before any tool code sees it. */
const asReceived = (args: unknown): unknown => deepFreeze(JSON.parse(JSON.stringify(args)))

/** Arguments a model plausibly sends to each first-party tool on an ordinary turn (no escalation fields). */
const FIRST_PARTY_ARGS: Readonly<Record<string, unknown>> = {
  read: { file_path: 'packages/core/tools/src/index.ts', offset: 1, limit: 200 },
  write: { file_path: 'notes/todo.md', content: '# TODO\n\n- profile the overlay\n- update the README\n' },
  edit: {
    file_path: 'src/retry.ts',
    old_string: 'const MAX_RETRIES = 3',
    new_string: 'const MAX_RETRIES = 5',
    replace_all: false,
  },
  bash: { command: 'git status --short', description: 'Show working tree status', timeoutMs: 120_000 },
  pwsh: { command: 'Get-ChildItem -Recurse -Filter *.ts', description: 'List TypeScript files' },
  cordis_inspect_list: {},
  cordis_inspect_query: {
    platform: 'host',
    provider: 'notes-1/notes',
    method: 'search',
    input: { query: 'retry policy', limit: 10 },
  },
  cordis_inspect_self: { pluginId: 'notes-1' },
  cordis_define: {
    plugin: { kind: 'new', idPrefix: 'notes' },
    name: 'Notes',
    purpose: 'Keeps short notes for the current session.',
    code: { host: 'return { name: "notes", apply(ctx) { ctx.logger("notes").info("ready") } }' },
  },
  cordis_run: { pluginId: 'notes-1', packageId: 'notes-1@1', mode: 'run' },
  cordis_stop: { pluginId: 'notes-1' },
  cordis_undefine: { pluginId: 'notes-1' },
}

async function firstPartyCase(): Promise<ArgumentCase> {
  const { definitions } = await collectFirstPartyTools()
  const guessed: string[] = []
  const tools = definitions.map((definition) => {
    let args = FIRST_PARTY_ARGS[definition.name]
    if (args === undefined) {
      guessed.push(definition.name)
      args = exampleArguments(definition.parameters)
    }
    return {
      name: definition.name,
      source: undefined,
      parameters: definition.parameters,
      args: asReceived(args),
    }
  })
  return {
    name: `first-party tools (${tools.length})`,
    tools,
    repetitions: 3000,
    dshRepetitions: 500,
    notes: [
      'hand-written arguments a model sends on an ordinary turn; one call per tool per repetition',
      ...(guessed.length > 0
        ? [`no hand-written arguments, generated from the schema: ${guessed.join(', ')}`]
        : []),
    ],
  }
}

/**
 * Every tool of the live MCP reference corpus, with generated arguments (every declared property filled). `valid`
 * decides which reading to keep; tools for which neither reading is valid are left out and named in the notes.
 */
async function mcpCase(
  valid: (parameters: unknown, args: unknown) => boolean,
): Promise<ArgumentCase | undefined> {
  const corpus = await loadMcpCorpus()
  const dropped: string[] = []
  let requiredOnly = 0
  const tools: ArgumentTool[] = []
  for (const tool of corpus.tools) {
    const full = exampleArguments(tool.inputSchema)
    const minimal = exampleArguments(tool.inputSchema, { required: 'only' })
    const args = valid(tool.inputSchema, full) ? full : valid(tool.inputSchema, minimal) ? minimal : undefined
    if (args === undefined) {
      dropped.push(`${tool.server}/${tool.name}`)
      continue
    }
    if (args === minimal) requiredOnly++
    tools.push({ name: tool.name, source: tool.server, parameters: tool.inputSchema, args: asReceived(args) })
  }
  if (tools.length === 0) return undefined
  return {
    name: `MCP reference tools (${tools.length})`,
    tools,
    repetitions: 200,
    dshRepetitions: 100,
    notes: [
      ...corpus.notes,
      `corpus listed live over stdio in ${corpus.elapsedMs} ms (raw JSON-RPC reader, schemas exactly as sent)`,
      `arguments generated from each schema with every declared property filled${requiredOnly > 0 ? ` (${requiredOnly} with required properties only)` : ''}, checked with ajv`,
      ...(dropped.length > 0 ? [`left out, no valid generated arguments: ${dropped.join(', ')}`] : []),
    ],
  }
}

export const DEEP_LEVELS = 64

/** A schema for objects nested `levels` deep: each level has a `name` and (but the last) a required `child`. */
export function deepSchema(
  levels: number,
  description = 'One level of a nested tree.',
): Record<string, unknown> {
  let schema: Record<string, unknown> = {
    type: 'object',
    description,
    properties: { name: { type: 'string' } },
    required: ['name'],
  }
  for (let level = 1; level < levels; level++) {
    schema = {
      type: 'object',
      description,
      properties: { name: { type: 'string' }, child: schema },
      required: ['name', 'child'],
    }
  }
  return schema
}

export function deepArgs(levels: number): Record<string, unknown> {
  let args: Record<string, unknown> = { name: `level ${levels}` }
  for (let level = levels - 1; level >= 1; level--) args = { name: `level ${level}`, child: args }
  return args
}

/**
 * JSON depth of the depth-`levels` schema: two JSON levels per object level (`properties`, then the property).
 * The default root-contract limit (`maxDepth` 256) accepts it; the case still passes its limits explicitly.
 */
const DEEP_LIMITS: SizeLimits = { ...DEFAULT_LIMITS, maxDepth: 256 }

function deepCase(): ArgumentCase {
  return {
    name: `depth-${DEEP_LEVELS} nested objects`,
    tools: [
      {
        name: 'nested_tree',
        source: undefined,
        parameters: deepSchema(DEEP_LEVELS),
        args: asReceived(deepArgs(DEEP_LEVELS)),
      },
    ],
    repetitions: 5000,
    dshRepetitions: 20,
    limits: DEEP_LIMITS,
    notes: [
      `arguments are objects nested ${DEEP_LEVELS} deep ({ name, child }); the schema is ${2 * DEEP_LEVELS + 1} JSON levels deep`,
      2 * DEEP_LEVELS + 1 > DEFAULT_LIMITS.maxDepth
        ? `the default root contract (maxDepth ${DEFAULT_LIMITS.maxDepth}) rejects that schema at registration; the contract here is compiled with maxDepth ${DEEP_LIMITS.maxDepth}`
        : `the default root contract (maxDepth ${DEFAULT_LIMITS.maxDepth}) accepts that schema`,
    ],
  }
}

export const ARRAY_LENGTH = 1000

export function arraySchema(description = 'Tasks to import.'): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      tasks: {
        type: 'array',
        description,
        items: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            title: { type: 'string' },
            done: { type: 'boolean' },
          },
          required: ['id', 'title', 'done'],
          additionalProperties: false,
        },
      },
    },
    required: ['tasks'],
  }
}

function arrayCase(): ArgumentCase {
  const tasks = Array.from({ length: ARRAY_LENGTH }, (_, index) => ({
    id: index + 1,
    title: `task ${index + 1}`,
    done: index % 3 === 0,
  }))
  return {
    name: `array of ${ARRAY_LENGTH} small objects`,
    tools: [
      { name: 'import_tasks', source: undefined, parameters: arraySchema(), args: asReceived({ tasks }) },
    ],
    repetitions: 100,
    dshRepetitions: 5,
    notes: [
      `{ tasks: [...] } with ${ARRAY_LENGTH} items of { id: integer, title: string, done: boolean }, closed`,
    ],
  }
}

async function loadCases(): Promise<ArgumentCase[]> {
  const bare = createBareAjv()
  const mcp = await mcpCase((parameters, args) => bare(parameters)(args) === true)
  if (mcp === undefined) process.stderr.write('MCP reference corpus: no tool could be listed, case skipped\n')
  return [await firstPartyCase(), ...(mcp === undefined ? [] : [mcp]), deepCase(), arrayCase()]
}

let loaded: Promise<ArgumentCase[]> | undefined

/**
 * The four argument sets of the issue: first-party tools, real MCP tools, depth-64 objects, a 1,000-item array.
 * Loaded once per process (the MCP corpus spawns servers), shared by every benchmark that validates arguments.
 */
export function argumentCases(): Promise<ArgumentCase[]> {
  loaded ??= loadCases()
  return loaded
}
