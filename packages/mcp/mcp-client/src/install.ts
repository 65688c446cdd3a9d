import { AsyncLocalStorage } from 'node:async_hooks'
import { basename } from 'node:path'
import type { ProfileId } from '@dsh-harden/tools'
import { intakeToolList } from './intake.ts'
import { loadMcpSdk, type McpSdk } from './sdk-instance.ts'
import type { IntakePolicy, IntakeResult } from './types.ts'

/**
 * Tolerant intake for DSH's real `@deepseek-ai/dsh-mcp-client` (rc.8), which lists tools with
 * `client.request({ method: 'tools/list' }, ListToolsResultSchema)` and lets the SDK's zod parse reject the whole page
 * over one tool (`lib/index.js` `listToolsUncached` → `syncTools`). There is no hook between the two, so this patches
 * exactly one method, `Client.prototype.request` of the SDK copy DSH imports, and only for calls that pass that very
 * `ListToolsResultSchema` object on a `tools/list` request from a client named `dsh-mcp-client`. Such a call is sent
 * with the SDK's loose `ResultSchema` instead; the raw page goes through `intakeToolList`, and the accepted tools are
 * parsed with `ListToolsResultSchema` as before, so DSH receives what it always receives, minus isolated tools.
 * Every other request, every other client and every other schema goes to the original method untouched.
 */
export interface TolerantIntakeOptions {
  readonly policy?: IntakePolicy | undefined
  readonly profile?: ProfileId | undefined
  /** Which SDK clients get tolerant intake: DSH's (`clientInfo.name === 'dsh-mcp-client'`, default) or all. */
  readonly clients?: 'dsh-mcp-client' | 'all' | undefined
  /** Called once per listed page with what intake did. */
  readonly onIntake?: ((event: IntakeEvent) => void) | undefined
  /** The SDK to patch; default: the copy `@deepseek-ai/dsh-mcp-client` resolves (see `loadMcpSdk`). */
  readonly sdk?: McpSdk | undefined
  /**
   * `true`: only clients whose first `tools/list` runs inside this installation's `run()` (one DSH mcp-client row)
   * get these options. Default: any client first seen outside every scoped installation.
   */
  readonly scoped?: boolean | undefined
}

export interface IntakeEvent {
  readonly server: string
  readonly result: IntakeResult
  /** Tools on the page as listed. */
  readonly listed: number
}

interface Scope {
  readonly server?: string | undefined
  readonly installation?: Installation | undefined
}

const scope = new AsyncLocalStorage<Scope>()

/**
 * Runs `work` (typically DSH's mcp-client `apply`) so that every `tools/list` it starts — the first sync, a
 * reconnect, a `list_changed` re-sync — is reported under `server`. Outside a scope the server is described from
 * the client's transport (command or URL).
 */
export function withIntakeServer<T>(server: string, work: () => T): T {
  return scope.run({ ...scope.getStore(), server }, work)
}

/** What `installTolerantIntakeOn` returns: call it to uninstall; `run` scopes work to this installation. */
export interface IntakeInstallation {
  (): void
  /**
   * Runs `work` (one DSH mcp-client row's `apply`) so that the clients it creates get this installation's options
   * for their whole life, whatever is installed later; `server` names them in diagnostics.
   */
  run<T>(server: string | undefined, work: () => T): T
}

type RequestMethod = (this: unknown, request: unknown, schema: unknown, options?: unknown) => Promise<unknown>

interface Installation {
  readonly options: TolerantIntakeOptions
}

interface Patch {
  readonly original: RequestMethod
  readonly hadOwn: boolean
  readonly installations: Installation[]
  /** Which installation each client belongs to, fixed at its first tolerant `tools/list`. */
  readonly owners: WeakMap<object, Installation>
  /** The server name each client was first listed under (a reconnect may run outside the row's scope). */
  readonly names: WeakMap<object, string>
}

const patches = new WeakMap<object, Patch>()

function describeTransport(client: unknown): string {
  try {
    const transport = (client as { transport?: Record<string, unknown> }).transport
    const params = transport?._serverParams as { command?: unknown; args?: unknown } | undefined
    if (typeof params?.command === 'string') {
      const script = Array.isArray(params.args) && typeof params.args[0] === 'string' ? params.args[0] : ''
      return `stdio:${basename(params.command)}${script ? ` ${basename(script)}` : ''}`
    }
    const url = transport?._url
    if (url instanceof URL) return url.href
  } catch {}
  return 'unknown server'
}

function appliesTo(client: unknown, options: TolerantIntakeOptions): boolean {
  if (options.clients === 'all') return true
  try {
    return (client as { _clientInfo?: { name?: unknown } })._clientInfo?.name === 'dsh-mcp-client'
  } catch {
    return false
  }
}

function isToolsList(request: unknown): boolean {
  try {
    return (request as { method?: unknown } | null)?.method === 'tools/list'
  } catch {
    return false
  }
}

/**
 * The installation a client belongs to: the scoped one it runs under, else the one it was bound to at first sight
 * (while that is installed), else the newest unscoped one, which it is then bound to. So options belong to the client
 * they were installed for; a later installation never changes an earlier client's.
 */
function ownerOf(client: unknown, patch: Patch): Installation | undefined {
  const live = (installation: Installation | undefined) =>
    installation !== undefined && patch.installations.includes(installation) ? installation : undefined
  const key = typeof client === 'object' && client !== null ? client : undefined
  const owner =
    live(scope.getStore()?.installation) ??
    live(key && patch.owners.get(key)) ??
    patch.installations.findLast((installation) => installation.options.scoped !== true)
  if (key !== undefined && owner !== undefined) patch.owners.set(key, owner)
  return owner
}

function tolerantRequest(sdk: McpSdk, patch: Patch): RequestMethod {
  return async function request(this: unknown, req, schema, options) {
    const installation =
      schema === sdk.ListToolsResultSchema && isToolsList(req) ? ownerOf(this, patch) : undefined
    if (
      installation === undefined ||
      schema !== sdk.ListToolsResultSchema ||
      !isToolsList(req) ||
      !appliesTo(this, installation.options)
    ) {
      return patch.original.call(this, req, schema, options)
    }
    const raw = (await patch.original.call(this, req, sdk.ResultSchema, options)) as Record<string, unknown>
    // A page without a tools array has nothing to isolate: fail exactly as the SDK would.
    if (!Array.isArray(raw.tools)) return strict(sdk, raw)
    const key = this as object
    const scoped = scope.getStore()?.server
    if (scoped !== undefined) patch.names.set(key, scoped)
    const server = scoped ?? patch.names.get(key) ?? describeTransport(this)
    const { policy, profile } = installation.options
    const result = intakeToolList(raw.tools, { server, policy, profile })
    installation.options.onIntake?.({ server, result, listed: raw.tools.length })
    return strict(sdk, { ...raw, tools: result.tools })
  }
}

function strict(sdk: McpSdk, page: unknown): unknown {
  const parsed = sdk.ListToolsResultSchema.safeParse(page)
  if (!parsed.success) throw parsed.error
  return parsed.data
}

/**
 * Installs on a given SDK (synchronous); returns the uninstaller, which also scopes work to this installation
 * (`run`). Each client keeps the options of the installation it belongs to (see `ownerOf`).
 */
export function installTolerantIntakeOn(
  sdk: McpSdk,
  options: TolerantIntakeOptions = {},
): IntakeInstallation {
  const prototype = sdk.Client.prototype as Record<string, unknown>
  let patch = patches.get(prototype)
  if (patch === undefined) {
    patch = {
      original: prototype.request as RequestMethod,
      hadOwn: Object.hasOwn(prototype, 'request'),
      installations: [],
      owners: new WeakMap(),
      names: new WeakMap(),
    }
    patches.set(prototype, patch)
    prototype.request = tolerantRequest(sdk, patch)
  }
  const installation: Installation = { options }
  patch.installations.push(installation)
  const active = patch
  const uninstall = () => {
    const index = active.installations.indexOf(installation)
    if (index === -1) return
    active.installations.splice(index, 1)
    if (active.installations.length > 0) return
    if (active.hadOwn) prototype.request = active.original
    else delete prototype.request
    patches.delete(prototype)
  }
  return Object.assign(uninstall, {
    run: <T>(server: string | undefined, work: () => T): T =>
      scope.run({ server: server ?? scope.getStore()?.server, installation }, work),
  })
}

/** Finds the SDK copy DSH's mcp-client imports (unless `options.sdk` is given) and installs on it. */
export async function installTolerantIntake(
  options: TolerantIntakeOptions = {},
): Promise<IntakeInstallation> {
  return installTolerantIntakeOn(options.sdk ?? (await loadMcpSdk()), options)
}
