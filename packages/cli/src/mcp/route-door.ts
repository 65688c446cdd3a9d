import type { Outbound, ServedPage, ToolRoute } from '@dsh-harden/mcp-repair'
import {
  createToolContract,
  type ProfileId,
  profileRules,
  type Renames,
  renameAll,
  type ToolContract,
} from '@dsh-harden/tools'

/**
 * The rename table the route needs for one set of tool names (`toolNames` of its profile), or `undefined` when it
 * takes every name as it is: the overlay's table, so every door sends the same wire names.
 */
export function toolNameRenames(names: Iterable<string>, profile: ProfileId): Renames | undefined {
  return renameAll(names, profileRules(profile).toolNames)
}

type IntakeResult = Parameters<ToolRoute['servePage']>[0]
type ListedTool = ServedPage['tools'][number]

/** A served tool by its wire name: who the server knows it as, and how its arguments are read back. */
interface CallTarget {
  readonly declared: string
  readonly inputSchema: unknown
  /** Compiled on the tool's first call; `null`: its schema breaks the root contract, arguments go as sent. */
  contract?: ToolContract | null
}

type CallOutcome =
  | { readonly kind: 'same' }
  | { readonly kind: 'changed'; readonly message: Record<string, unknown> }
  | { readonly kind: 'refused'; readonly answer: object }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The route door of one client session (`ToolRoute` of `@dsh-harden/mcp-repair`), over the projection the overlay
 * applies: `tools/list` carries each tool under the route's wire name with its wire input schema (what
 * `judgeMcpToolList` projected for the route), and a `tools/call` to a wire name reaches the server under the
 * declared name, its arguments read back with the contract's `normalizeArguments(args, profile)`.
 */
export class RouteDoor implements ToolRoute {
  readonly profile: ProfileId
  readonly #server: string
  readonly #targets = new Map<string, CallTarget>()

  constructor(profile: ProfileId, server: string) {
    this.profile = profile
    this.#server = server
  }

  servePage(intake: IntakeResult): ServedPage {
    const projections = new Map((intake.projections ?? []).map((p) => [p.tool, p.input]))
    // One table per page: a page is what the client registers at once (a later page adds its own names).
    const renames = toolNameRenames(
      intake.tools.map((tool) => tool.name),
      this.profile,
    )
    const projected: string[] = []
    const tools = intake.tools.map((tool): ListedTool => {
      const wireName = renames?.toWire.get(tool.name) ?? tool.name
      this.#targets.set(wireName, { declared: tool.name, inputSchema: tool.inputSchema })
      const input = projections.get(tool.name)
      const wire = input === undefined || input.wire === tool.inputSchema ? undefined : input.wire
      if (wire !== undefined) projected.push(tool.name)
      if (wire === undefined && wireName === tool.name) return tool
      // The output schema stays as the server declared it: it checks what the server returns, which is not projected.
      return { ...tool, name: wireName, ...(wire === undefined ? {} : { inputSchema: wire }) }
    })
    return { profile: this.profile, tools, renamed: renames?.toWire ?? new Map(), projected }
  }

  toServer(message: unknown): Outbound {
    if (!Array.isArray(message)) {
      const outcome = this.#call(message)
      return outcome.kind === 'refused' ? { kind: 'answered', answers: [outcome.answer] } : outcome
    }
    const outcomes = message.map((element) => this.#call(element))
    if (outcomes.every((outcome) => outcome.kind === 'same')) return { kind: 'same' }
    // A batch goes whole or not at all: a request refused here is answered with the others kept from the server.
    if (outcomes.some((outcome) => outcome.kind === 'refused'))
      return {
        kind: 'answered',
        answers: outcomes.flatMap((outcome, index) => {
          if (outcome.kind === 'refused') return [outcome.answer]
          const id = (message[index] as { id?: unknown } | null)?.id
          return id === undefined ? [] : [notSentInBatch(id)]
        }),
      }
    return {
      kind: 'changed',
      message: outcomes.map((outcome, index) =>
        outcome.kind === 'changed' ? outcome.message : message[index],
      ),
    }
  }

  #call(message: unknown): CallOutcome {
    if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params))
      return { kind: 'same' }
    const { params } = message
    const target = typeof params.name === 'string' ? this.#targets.get(params.name) : undefined
    if (target === undefined) return { kind: 'same' }
    let args = params.arguments
    if (args !== undefined) {
      const contract = this.#contractOf(target)
      try {
        if (contract !== null) args = contract.normalizeArguments(args, this.profile)
      } catch (error) {
        return { kind: 'refused', answer: this.#unreadable(message.id, params.name as string, target, error) }
      }
    }
    if (args === params.arguments && target.declared === params.name) return { kind: 'same' }
    const mapped: Record<string, unknown> = { ...params, name: target.declared }
    if (args !== undefined) mapped.arguments = args
    return { kind: 'changed', message: { ...message, params: mapped } }
  }

  #contractOf(target: CallTarget): ToolContract | null {
    if (target.contract === undefined) {
      try {
        target.contract = createToolContract(target.inputSchema, {
          tool: target.declared,
          source: this.#server,
        })
      } catch {
        // Under the spec policy a served schema may break the root contract; it was not projected either.
        target.contract = null
      }
    }
    return target.contract
  }

  /** A tool error the model can read and act on: which tool and server, where in the arguments, what to send. */
  #unreadable(id: unknown, wireName: string, target: CallTarget, error: unknown): object {
    const violation = (error as { violation?: { pointer?: unknown; message?: unknown } } | null)?.violation
    const where =
      typeof violation?.pointer === 'string' && violation.pointer !== '' ? violation.pointer : '(root)'
    const why =
      typeof violation?.message === 'string'
        ? violation.message
        : error instanceof Error
          ? error.message
          : String(error)
    const text =
      `dsh-harden mcp repair: the arguments of ${JSON.stringify(wireName)} (tool ${JSON.stringify(target.declared)} of ` +
      `${JSON.stringify(this.#server)}, route ${this.profile}) cannot be read back at ${where}: ${why}. ` +
      'Call it again with the arguments as its input schema lists them.'
    return { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text }] } }
  }
}

function notSentInBatch(id: unknown): object {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32600,
      message:
        'dsh-harden mcp repair: not sent: another call in this batch could not be read back (its answer says why); send this request again on its own',
    },
  }
}
