import type { Context } from '@deepseek-ai/cordis'
import { ConflictingKeysError, type ProfileId, ToolArgsError, type ToolContract } from '@dsh-harden/tools'
import { installOwnMethod } from '../dsh/own-method.ts'

/** What the door needs to read a call the model wrote for its route back into the declared tool's terms. */
export interface CallReading {
  /** The registered name of a tool the model called by its wire name, or `undefined` when it was not renamed. */
  readonly declaredName: (name: string, scope: unknown) => string | undefined
  /** The contract the overlay compiled for a registered definition. */
  readonly contractOf: (definition: object) => ToolContract | undefined
  /** The route whose arguments a call carries (`exec.agent` names the agent); `undefined` leaves them as sent. */
  readonly argumentProfile: (exec: unknown) => ProfileId | undefined
  /** Refuse calls whose arguments, read back, do not match the declared schema (with `ToolArgsError`). */
  readonly validateArguments: boolean
}

interface ExecutionInput {
  readonly callId?: unknown
  readonly name?: unknown
  readonly arguments?: unknown
  readonly agent?: unknown
}

// Calls refused while being read, until DSH dispatches them (a call a policy denies first never gets there, so the
// oldest are let go past this many).
const MAX_PENDING_REFUSALS = 256

type Lookup = (name: string, scope?: unknown) => object | undefined
type PrepareExecution = (this: unknown, input: unknown, next: unknown) => unknown
type ExecutionMode = (this: unknown, input: unknown) => unknown

/** DSH's `ToolExecutionResult` for a failed call, as its `toolErrorResult` (dsh-tools `index.ts`) builds one. */
function argumentsErrorResult(error: ToolArgsError): object {
  return {
    content: [{ type: 'text', text: `Error: ${error.message}` }],
    isError: true,
    error: { message: error.message, info: { name: error.name, code: error.code } },
  }
}

/**
 * The door every call passes before DSH looks at it: DSH's `ToolRuntime` turns a call into an execution in one place,
 * `prepareExecution` (behind `execute()` and the agent loop's scheduler `prepare`), and classifies it in
 * `executionMode()` (`packages/core/tools/src/index.ts`). Both get the call with the declared tool name and the
 * arguments read back into the declared shape, so everything after (`tools/pre-execute` hooks, approvals, guards,
 * reminders, `tools/result`, the tool body and DSH's own identity checks such as fs-search's spill) sees the tool as
 * declared, and the registered definition is never swapped for a copy. Calls the route did not change pass as they
 * came. A `tools/execute` listener refuses, with the result a failing tool body gets (so post-execute still sees it),
 * a call that carries a renamed key beside the declared key it reads back to, and, with `validateArguments`, a call
 * whose arguments do not match. Returns the uninstaller; `undefined` when this DSH
 * has no such door (the caller says so).
 */
export function installDeclaredCalls(
  ctx: Context,
  tools: object,
  reading: CallReading,
): (() => void) | undefined {
  const target = tools as { prepareExecution?: unknown; executionMode?: unknown; get?: unknown }
  if (
    typeof target.prepareExecution !== 'function' ||
    typeof target.executionMode !== 'function' ||
    typeof target.get !== 'function'
  )
    return undefined
  const lookup = (name: string, scope: unknown): object | undefined =>
    (target.get as Lookup).call(tools, name, scope)

  const contractFor = (name: string, scope: unknown): ToolContract | undefined => {
    const definition = lookup(name, scope)
    return typeof definition === 'object' && definition !== null ? reading.contractOf(definition) : undefined
  }

  /** Calls whose arguments cannot be read back (`ConflictingKeysError`), by call id: refused where the body would run. */
  const refused = new Map<unknown, ToolArgsError>()
  const refuse = (callId: unknown, contract: ToolContract, error: ConflictingKeysError): void => {
    if (refused.size >= MAX_PENDING_REFUSALS) refused.delete(refused.keys().next().value)
    refused.set(callId, new ToolArgsError(contract.identity, [error.violation]))
  }

  // The agent loop hands the same input to `executionMode` and then to `prepare`: it is read back once.
  const translated = new WeakMap<object, unknown>()
  const translate = (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null) return input
    let read = translated.get(input)
    if (read === undefined) {
      read = readBack(input as ExecutionInput)
      translated.set(input, read)
    }
    return read
  }

  const readBack = (input: ExecutionInput): unknown => {
    const { name, arguments: sent, agent } = input
    if (typeof name !== 'string') return input
    const declared = reading.declaredName(name, agent) ?? name
    let args = sent
    const contract = contractFor(declared, agent)
    const profile = contract === undefined ? undefined : reading.argumentProfile(input)
    if (contract !== undefined && profile !== undefined) {
      try {
        args = contract.normalizeArguments(sent, profile)
      } catch (error) {
        // Two values for one argument: refused at dispatch. Any other failure leaves the arguments as sent, for DSH and
        // the tool to judge as stock would.
        if (error instanceof ConflictingKeysError) refuse(input.callId, contract, error)
        args = sent
      }
    }
    return declared === name && args === sent ? input : { ...input, name: declared, arguments: args }
  }

  const uninstallPrepare = installOwnMethod<'prepareExecution', PrepareExecution>(
    target as { prepareExecution: PrepareExecution },
    'prepareExecution',
    (previous) =>
      function prepareExecution(this: unknown, input: unknown, next: unknown) {
        return previous.call(this, translate(input), next)
      },
  )
  const uninstallMode = installOwnMethod<'executionMode', ExecutionMode>(
    target as { executionMode: ExecutionMode },
    'executionMode',
    (previous) =>
      function executionMode(this: unknown, input: unknown) {
        return previous.call(this, translate(input))
      },
  )
  const uninstallDispatch = (ctx as unknown as { on: Listen }).on(
    'tools/execute',
    ((exec: ExecutionInput, next: () => unknown) => {
      const refusal = refused.get(exec.callId)
      if (refusal !== undefined) {
        refused.delete(exec.callId)
        return argumentsErrorResult(refusal)
      }
      if (!reading.validateArguments) return next()
      const { name, agent } = exec
      const contract = typeof name === 'string' ? contractFor(name, agent) : undefined
      if (contract === undefined || reading.argumentProfile(exec) === undefined) return next()
      const violations = contract.validate(exec.arguments)
      if (violations.length === 0) return next()
      return argumentsErrorResult(new ToolArgsError(contract.identity, violations))
    }) as (...args: never[]) => unknown,
    { global: true },
  )
  return () => {
    uninstallDispatch()
    uninstallMode()
    uninstallPrepare()
  }
}

type Listen = (
  name: string,
  listener: (...args: never[]) => unknown,
  options?: { prepend?: boolean; global?: boolean },
) => () => void
