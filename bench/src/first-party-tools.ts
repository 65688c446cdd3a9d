import { type Context, symbols } from '@deepseek-ai/cordis'
import DynamicCordisRunner from '@deepseek-ai/dsh-cordis-host-runner'
import * as ToolBash from '@deepseek-ai/dsh-tool-bash'
import * as ToolCordis from '@deepseek-ai/dsh-tool-cordis'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import * as ToolPwsh from '@deepseek-ai/dsh-tool-pwsh'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import { createToolRuntime } from './runtime.ts'

/** The definitions DSH's own tool plugins register, and what could not be loaded. */
export interface FirstPartyTools {
  readonly definitions: readonly ToolDefinition[]
  /** `package: tool, tool…` for every plugin that registered tools. */
  readonly loaded: readonly string[]
  /** `package: reason` for every plugin that registered nothing. */
  readonly missing: readonly string[]
}

type Plugin = Parameters<Context['plugin']>[0]

/**
 * Registration-only stand-ins for the capability services tool-bash, tool-pwsh and tool-fs inject. Their `apply()`
 * reads only `shell.sandboxMode`, `fs.sandboxMode` and whether `sandboxPolicy` exists; `shellEnv` is read per call.
 * A defined `sandboxMode` is what dsh-bash-sandbox / dsh-fs-sandbox report, so the escalation fields
 * (`sandbox_permissions`, `justification`) are advertised as in a confining composition. Nothing here executes.
 */
const CapabilityStandIns = {
  name: 'bench-capability-stand-ins',
  apply(ctx: Context): void {
    const provide = ctx.provide.bind(ctx) as (name: string, value: unknown) => void
    provide('shell', { sandboxMode: 'read-only' })
    provide('fs', { sandboxMode: 'read-only' })
    provide('shellEnv', {})
    provide('sandboxPolicy', {})
  },
}

const TOOL_PLUGINS: readonly (readonly [string, Plugin])[] = [
  ['@deepseek-ai/dsh-tool-fs', ToolFs as unknown as Plugin],
  ['@deepseek-ai/dsh-tool-bash', ToolBash as unknown as Plugin],
  ['@deepseek-ai/dsh-tool-pwsh', ToolPwsh as unknown as Plugin],
  ['@deepseek-ai/dsh-tool-cordis', ToolCordis as unknown as Plugin],
]

interface ToolsInstance {
  register(definition: ToolDefinition): () => void
}

/**
 * Mounts the real first-party tool plugins on a stock runtime and records every definition they pass to
 * `register()`, by shadowing `register` on the raw service instance behind cordis' proxy.
 */
export async function collectFirstPartyTools(): Promise<FirstPartyTools> {
  const app = await createToolRuntime({ hardened: false })
  const tools = (app.tools as unknown as Record<symbol, ToolsInstance>)[symbols.original] as ToolsInstance
  const recorded: ToolDefinition[] = []
  const register = tools.register
  tools.register = function record(this: unknown, definition: ToolDefinition) {
    recorded.push(definition)
    return register.call(this, definition)
  }
  await app.plugin(CapabilityStandIns as Plugin)
  await app.plugin(DynamicCordisRunner as unknown as Plugin)

  const loaded: string[] = []
  const missing: string[] = []
  for (const [name, plugin] of TOOL_PLUGINS) {
    const before = recorded.length
    try {
      // A plugin whose injected services are absent resolves without applying, so count what it registered.
      await app.plugin(plugin)
    } catch (error) {
      missing.push(`${name}: ${error instanceof Error ? error.message : String(error)}`)
      continue
    }
    const names = recorded.slice(before).map((definition) => definition.name)
    if (names.length > 0) loaded.push(`${name}: ${names.join(', ')}`)
    else missing.push(`${name}: registered no tools (an injected service is missing)`)
  }
  return { definitions: recorded, loaded, missing }
}
