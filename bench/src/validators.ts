import { assertSupportedJsonSchema, validateJsonSchemaValue } from '@deepseek-ai/dsh-tools'
import {
  createToolContract,
  type ProfileId,
  projectParameters,
  type SizeLimits,
  type ToolContract,
} from '@dsh-harden/tools'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { ArgumentCase, ArgumentTool } from './argument-cases.ts'

/** The route whose arguments are read back; DeepSeek is what DSH users run. */
export const PROFILE: ProfileId = 'deepseek'

/**
 * The baseline: one plain draft-07 ajv with formats, as any host would set it up, each schema compiled once.
 * `$schema`/`$id` are removed first: plain `Ajv` refuses the 2020-12 meta-schema URI the playwright tools declare,
 * and none of the corpus' schemas uses a 2020-12-only keyword, so draft-07 reads them the same way.
 */
export function createBareAjv(): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false })
  addFormats.default(ajv)
  return (schema) => {
    const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>
    return ajv.compile(rest)
  }
}

/** How DSH's own validator gets a schema it accepts: as declared when in its subset, else the `dsh-subset` projection. */
export interface DshSchema {
  readonly schema: Parameters<typeof validateJsonSchemaValue>[0]
  readonly projected: boolean
}

export function dshSchemaFor(contract: ToolContract): DshSchema | undefined {
  try {
    assertSupportedJsonSchema(contract.declared)
    return { schema: contract.declared as DshSchema['schema'], projected: false }
  } catch {}
  const { wire } = projectParameters(contract.declared, 'dsh-subset')
  try {
    assertSupportedJsonSchema(wire)
    return { schema: wire as DshSchema['schema'], projected: true }
  } catch {
    return undefined
  }
}

/** One tool ready for every validator: compiled once, checked once, before any timing. */
export interface PreparedTool {
  readonly name: string
  readonly args: unknown
  readonly contract: ToolContract
  readonly ajv: ValidateFunction
  /** Undefined when DSH's validator cannot take this tool (see `PreparedCase.dshNotes`). */
  readonly dsh: DshSchema | undefined
}

export interface PreparedCase {
  readonly case: ArgumentCase
  readonly tools: readonly PreparedTool[]
  /** Tools DSH's validator can check (schema in its subset, possibly projected, and it accepts the arguments). */
  readonly dshTools: readonly PreparedTool[]
  readonly dshNotes: readonly string[]
}

function prepareTool(
  tool: ArgumentTool,
  limits: SizeLimits | undefined,
  bare: ReturnType<typeof createBareAjv>,
) {
  const identity = { tool: tool.name, source: tool.source }
  // MCP tools take the tolerant path, as the overlay does for foreign schemas.
  const contract = createToolContract(tool.parameters, identity, { mode: 'repair', limits })
  const prepared: PreparedTool = {
    name: tool.name,
    args: tool.args,
    contract,
    ajv: bare(tool.parameters),
    dsh: dshSchemaFor(contract),
  }
  // Every validator must accept the arguments, or the bench would time error paths.
  if (contract.parseArguments(tool.args, PROFILE) !== tool.args)
    throw new Error(`${tool.name}: parseArguments changed arguments that need no change`)
  if (contract.validatorProblem !== undefined) throw new Error(`${tool.name}: ${contract.validatorProblem}`)
  if (!prepared.ajv(tool.args)) throw new Error(`${tool.name}: bare ajv rejects the arguments`)
  return prepared
}

export function prepareCase(argumentCase: ArgumentCase): PreparedCase {
  const bare = createBareAjv()
  const tools = argumentCase.tools.map((tool) => prepareTool(tool, argumentCase.limits, bare))
  const unsupported: string[] = []
  const rejected: string[] = []
  const dshTools = tools.filter((tool) => {
    if (tool.dsh === undefined) unsupported.push(tool.name)
    else if (validateJsonSchemaValue(tool.dsh.schema, tool.args, '').length > 0) rejected.push(tool.name)
    else return true
    return false
  })
  const projected = dshTools.filter((tool) => tool.dsh?.projected).length
  const dshNotes = [
    `DSH checks ${dshTools.length} of ${tools.length} tools: ${dshTools.length - projected} with the declared schema, ${projected} with projectParameters(schema, 'dsh-subset').wire (outside DSH's subset as declared)`,
    ...(projected > 0
      ? [
          "the 'dsh-subset' projection drops $schema and spills bounds DSH cannot enforce (minimum, maxLength, propertyNames…) into description, so DSH checks less than ajv there",
        ]
      : []),
    ...(unsupported.length > 0 ? [`not in DSH's subset even projected: ${unsupported.join(', ')}`] : []),
    ...(rejected.length > 0 ? [`DSH rejects the arguments: ${rejected.join(', ')}`] : []),
  ]
  return { case: argumentCase, tools, dshTools, dshNotes }
}

/** The timed loops: every tool once per repetition, throwing on a rejection as a real caller would. */
export function runParseArguments(tools: readonly PreparedTool[], repetitions: number): void {
  for (let repetition = 0; repetition < repetitions; repetition++)
    for (const tool of tools) tool.contract.parseArguments(tool.args, PROFILE)
}

export function runNormalizeArguments(tools: readonly PreparedTool[], repetitions: number): void {
  for (let repetition = 0; repetition < repetitions; repetition++)
    for (const tool of tools) tool.contract.normalizeArguments(tool.args, PROFILE)
}

export function runContractValidate(tools: readonly PreparedTool[], repetitions: number): void {
  for (let repetition = 0; repetition < repetitions; repetition++)
    for (const tool of tools)
      if (tool.contract.validate(tool.args).length > 0) throw new Error(`${tool.name}: rejected`)
}

export function runBareAjv(tools: readonly PreparedTool[], repetitions: number): void {
  for (let repetition = 0; repetition < repetitions; repetition++)
    for (const tool of tools) if (!tool.ajv(tool.args)) throw new Error(`${tool.name}: rejected`)
}

export function runDsh(tools: readonly PreparedTool[], repetitions: number): void {
  for (let repetition = 0; repetition < repetitions; repetition++)
    for (const tool of tools)
      if (validateJsonSchemaValue(tool.dsh!.schema, tool.args, '').length > 0)
        throw new Error(`${tool.name}: rejected`)
}
