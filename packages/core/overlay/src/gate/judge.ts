import {
  type ContractOptions,
  createToolContract,
  type EnforceOptions,
  JsonSchemaError,
  type RepairReport,
  type RootContractMode,
  type ToolContract,
  type ToolIdentity,
  type ValidatorProblem,
} from '@dsh-harden/tools'
import { DSH_FALLBACK_VALIDATOR } from '../dsh/fallback-validator.ts'
import type { Registration } from '../dsh/registrant.ts'
import { type RegisteredTool, toolNameOf } from '../dsh/tool-definition.ts'

/**
 * What happens to a tool that fails the root contract. `refuse` (default): it is not registered and never reaches the
 * model; its plugin keeps loading. `repair`: mistakes with exactly one meaning are fixed, anything else is refused.
 * `throw`: the `JsonSchemaError` is thrown to the registering plugin (DSH then fails to start) — for CI profiles and
 * tests. `collect` (a bare guard only): refused like `refuse`, with no notice; each verdict goes to `onVerdict`.
 */
export type OverlayMode = RootContractMode | 'refuse' | 'collect'

/** What a judgement reads besides the definition. */
export interface JudgeOptions {
  readonly mode?: OverlayMode | undefined
  readonly limits?: EnforceOptions['limits']
}

/**
 * The outcome for one definition: the one to hand DSH (the same object unless a repair changed its schema) with its
 * contract and what was repaired, or the refusal.
 */
export type Judgement<D> =
  | {
      readonly kind: 'accepted'
      readonly identity: ToolIdentity
      readonly definition: D
      readonly contract: ToolContract
      readonly report?: RepairReport | undefined
    }
  | { readonly kind: 'refused'; readonly identity: ToolIdentity; readonly error: JsonSchemaError }

/**
 * What judging reads besides the definition, built once per caller (a guard, each path of a gate) rather than once
 * per tool: the options, and the contract options made from them.
 */
export interface Judge {
  readonly repairs: boolean
  /** Shared by every contract this judge builds, except in `repair` mode, where each tool reports its own repairs. */
  readonly contractOptions: ContractOptions
}

/** A `Judge` for `options`, reporting a schema ajv cannot compile to `onValidatorProblem` (at its first compile). */
export function createJudge(
  options: JudgeOptions,
  onValidatorProblem: (problem: ValidatorProblem) => void,
): Judge {
  const repairs = options.mode === 'repair'
  const contractOptions: ContractOptions = {
    mode: repairs ? 'repair' : 'throw',
    limits: options.limits,
    fallbackValidator: DSH_FALLBACK_VALIDATOR,
    onValidatorProblem,
  }
  return { repairs, contractOptions }
}

/**
 * Checks one definition against the root contract: the single decision every path into the registry makes (a
 * registration, the sweep of tools registered earlier, a tool rebuilt for a late transform). It reports nothing
 * itself; the caller words and records the judgement. The validator is compiled when it is first needed (the first
 * validated call), so a schema ajv cannot compile reaches `onValidatorProblem` then, not here. An accepted tool is
 * handed on as the very object registered: DSH's own packages compare definitions by identity
 * (`ctx.tools.get(name) === skillTool` in tool-skill's reminder, `acceptedDirectCallValue` in tool-fs-search's spill),
 * and DSH reads its `parameters` as stock does. A repaired tool is a copy carrying the repaired schema.
 */
export function judgeTool<D extends RegisteredTool>(
  definition: D,
  registration: Registration,
  judge: Judge,
): Judgement<D> {
  const identity: ToolIdentity = { tool: toolNameOf(definition), source: registration.source }
  let report: RepairReport | undefined
  const contractOptions: ContractOptions = judge.repairs
    ? {
        ...judge.contractOptions,
        onRepair: (repaired) => {
          report = repaired
        },
      }
    : judge.contractOptions
  let contract: ToolContract
  try {
    contract = createToolContract(readParameters(definition, identity), identity, contractOptions)
  } catch (error) {
    if (!(error instanceof JsonSchemaError)) throw error
    return { kind: 'refused', identity, error }
  }
  const handed = report === undefined ? definition : { ...definition, parameters: contract.declared }
  return { kind: 'accepted', identity, definition: handed, contract, report }
}

function readParameters(definition: RegisteredTool | undefined, identity: ToolIdentity): unknown {
  // A definition that is not an object has no parameters to read; the contract reports them missing.
  if (typeof definition !== 'object' || definition === null) return undefined
  try {
    return definition.parameters
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'a non-error value'
    throw new JsonSchemaError(identity, [
      {
        pointer: '',
        rule: 'unreadable',
        message: `reading \`parameters\` threw: ${reason}`,
        hint: 'declare parameters as a plain data property',
      },
    ])
  }
}
