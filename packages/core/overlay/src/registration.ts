import {
  compileToolContract,
  type EnforceOptions,
  JsonSchemaError,
  type ProfileId,
  type RootContractMode,
  type ToolContract,
  type ToolIdentity,
} from '@dsh-harden/tools'
import { bindContract } from './contract-definition.ts'
import { registrationOf, toolsOfReceiver, withDefinitionTransforms } from './definition-transforms.ts'

/** The slice of DSH's `ToolDefinition` the overlay reads; everything else passes through untouched. */
export interface RegisteredTool {
  readonly name?: unknown
  readonly parameters?: unknown
}

export type RegisterMethod<D extends RegisteredTool = RegisteredTool> = (
  this: unknown,
  definition: D,
) => () => void

/** What the overlay decided about one registration: the verdicts `dsh-harden lint` prints. */
export interface RegistrationVerdict {
  readonly identity: ToolIdentity
  /** `null` when the tool passed the root contract (possibly after a repair). */
  readonly error: JsonSchemaError | null
}

/**
 * `throw` and `repair` are the root-contract modes. `collect` never throws: a failing tool is reported through
 * `onVerdict` and left unregistered, so a plugin's `apply` runs to the end and every tool gets a verdict.
 */
export type OverlayMode = RootContractMode | 'collect'

export interface RegistrationGuardOptions {
  readonly mode?: OverlayMode | undefined
  readonly limits?: EnforceOptions['limits']
  readonly onRepair?: EnforceOptions['onRepair']
  readonly onVerdict?: ((verdict: RegistrationVerdict) => void) | undefined
  /**
   * The model route: the tool is registered with its wire schema for this route, and everything that sees a call's
   * arguments gets them read back into the declared shape. Without it, only the root contract applies.
   */
  readonly profile?: ProfileId | undefined
  /** With a profile: reject calls whose arguments do not match with `ToolArgsError`, for every tool. Default false. */
  readonly validateArguments?: boolean | undefined
}

function toolNameOf(definition: RegisteredTool | undefined): string {
  try {
    const name = definition?.name
    return typeof name === 'string' ? name : `<unnamed: ${typeof name}>`
  } catch {
    return '<unreadable name>'
  }
}

const unregisterNothing = (): void => {}

/**
 * Wraps a `register` implementation (DSH `ToolRuntime.register`, `packages/core/tools/src/index.ts`) so every tool's
 * `parameters` pass the root contract first. `this` is passed through, so cordis still attributes the registration
 * to the calling plugin and disposes it with that plugin.
 */
export function guardRegister<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  options: RegistrationGuardOptions = {},
): RegisterMethod<D> {
  const enforce: EnforceOptions = {
    mode: options.mode === 'repair' ? 'repair' : 'throw',
    limits: options.limits,
    onRepair: options.onRepair,
  }
  return function register(this: unknown, given: D): () => void {
    const registration = registrationOf(this)
    // Tool packages' definition transforms run first, so the contract and projection see the transformed tool.
    return withDefinitionTransforms(toolsOfReceiver(this), given, registration, (definition) => {
      // DSH's own first check keeps its precedence: a definition it rejects for its `output` gets DSH's error.
      if (!declaresCanonicalOutput(definition)) return original.call(this, definition)
      const identity: ToolIdentity = { tool: toolNameOf(definition), source: registration.source }
      let contract: ToolContract
      try {
        contract = compileToolContract(readParameters(definition, identity), identity, enforce)
      } catch (error) {
        if (!(error instanceof JsonSchemaError)) throw error
        options.onVerdict?.({ identity, error })
        if (options.mode === 'collect') return unregisterNothing
        throw error
      }
      options.onVerdict?.({ identity, error: null })
      return original.call(this, accepted(definition, contract, options))
    })
  }
}

/** The condition of DSH's first check in `ToolRuntime.register()` (packages/core/tools/src/index.ts). */
function declaresCanonicalOutput(definition: unknown): boolean {
  try {
    const output = (definition as { output?: unknown } | null)?.output as
      | { render?: unknown; presentationMeta?: unknown }
      | undefined
    return (
      typeof output === 'object' &&
      output !== null &&
      typeof output.render === 'function' &&
      (output.presentationMeta === undefined || typeof output.presentationMeta === 'function')
    )
  } catch {
    return false
  }
}

function accepted<D extends RegisteredTool>(
  definition: D,
  contract: ToolContract,
  options: RegistrationGuardOptions,
): D {
  if (options.profile !== undefined) {
    return bindContract(definition, {
      contract,
      profile: options.profile,
      validateArguments: options.validateArguments ?? false,
    })
  }
  return contract.declared === definition.parameters
    ? definition
    : { ...definition, parameters: contract.declared }
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
