import { createToolContract, DEFAULT_LIMITS, type ToolContract } from '@dsh-harden/tools'
import { DEEP_LEVELS, deepArgs, deepSchema } from './argument-cases.ts'
import type { Comparison, Side } from './harness.ts'
import { createBareAjv, PROFILE } from './validators.ts'

/**
 * `@dsh-harden/tools` keeps one compiled validator per distinct schema JSON for the whole process (and ajv caches
 * per schema object), so every sample builds schemas that differ in one `description`: each call is a real compile.
 */
let generation = 0
const nextDescription = (): string => `compile-bench variant ${++generation}`

interface SchemaKind {
  readonly name: string
  readonly schema: (description: string) => Record<string, unknown>
  readonly args: unknown
  readonly perSample: number
  readonly rounds: number
  readonly notes: readonly string[]
}

/** Roughly DSH's `bash` tool: 7 properties, one enum, two required. */
function smallSchema(description: string): Record<string, unknown> {
  return {
    type: 'object',
    description,
    properties: {
      command: { type: 'string', description: 'The bash command to execute.' },
      description: { type: 'string', description: 'What this command does, 5-10 words.' },
      timeoutMs: { type: 'number', description: 'Timeout in milliseconds.' },
      workdir: { type: 'string', description: 'Working directory for this command.' },
      run_in_background: { type: 'boolean', description: 'Run in the background.' },
      sandbox_permissions: { type: 'string', enum: ['workspace-write', 'danger-full-access'] },
      justification: { type: 'string', description: 'Required with sandbox_permissions.' },
    },
    required: ['command', 'description'],
  }
}

const KINDS: readonly SchemaKind[] = [
  {
    name: 'small schema (7 properties)',
    schema: smallSchema,
    args: { command: 'git status --short', description: 'Show working tree status' },
    perSample: 20,
    rounds: 40,
    notes: ["a bash-like schema; the subject's first call also builds the deepseek projection"],
  },
  {
    name: `depth-${DEEP_LEVELS} schema`,
    schema: (description) => deepSchema(DEEP_LEVELS, description),
    args: deepArgs(DEEP_LEVELS),
    perSample: 2,
    rounds: 30,
    notes: [`objects nested ${DEEP_LEVELS} deep; contract compiled with maxDepth 256 (the default)`],
  },
]

const LIMITS = { ...DEFAULT_LIMITS, maxDepth: 256 }

/** Fresh contracts (untimed: the root-contract check is the register() bench's business); timed: the first call. */
function firstParse(kind: SchemaKind): Side {
  return {
    label: 'first parseArguments',
    prepare() {
      const contracts: ToolContract[] = []
      for (let index = 0; index < kind.perSample; index++) {
        const identity = { tool: `compile_${generation}`, source: undefined }
        contracts.push(createToolContract(kind.schema(nextDescription()), identity, { limits: LIMITS }))
      }
      return {
        run() {
          for (const contract of contracts) contract.parseArguments(kind.args, PROFILE)
        },
        dispose() {},
      }
    },
  }
}

/** The same work with plain ajv: compile a schema it has not seen, then validate once. */
function firstAjv(kind: SchemaKind, compile: ReturnType<typeof createBareAjv>): Side {
  return {
    label: 'ajv compile + validate',
    prepare() {
      const schemas = Array.from({ length: kind.perSample }, () => kind.schema(nextDescription()))
      return {
        run() {
          for (const schema of schemas)
            if (!compile(schema)(kind.args)) throw new Error('ajv rejects the arguments')
        },
        dispose() {},
      }
    },
  }
}

/** First-call cost of a contract (includes the ajv compile) against compiling the same schema with plain ajv. */
export function compileComparisons(): Comparison[] {
  // One engine for the whole run, as @dsh-harden/tools keeps one per dialect.
  const compile = createBareAjv()
  return KINDS.map((kind) => ({
    name: kind.name,
    opsPerSample: kind.perSample,
    peer: firstAjv(kind, compile),
    subject: firstParse(kind),
    warmup: 3,
    rounds: kind.rounds,
    notes: kind.notes,
  }))
}
