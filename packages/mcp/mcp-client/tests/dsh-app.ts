import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'

export interface DshTools {
  get(
    name: string,
  ): { name: string; parameters: unknown; execute: (args: unknown, exec: unknown) => unknown } | undefined
  schemas(): { name: string; parameters: unknown }[]
}

interface LogMessage {
  readonly type: string
  readonly name: string
  readonly args: readonly unknown[]
}

interface Logger {
  exporter(exporter: { levels?: Record<string, number>; export: (message: LogMessage) => void }): () => void
}

export type DshApp = Context & { tools: DshTools; logger: Logger }

const captured = new WeakMap<object, string[]>()

/** A real DSH app (the system prompt and tool runtime plugins DSH's own tests mount), recording every log line. */
export async function dshApp(): Promise<DshApp> {
  const app = new Context() as DshApp
  const lines: string[] = []
  captured.set(app, lines)
  // cordis drops warnings below the default level 1 unless an exporter asks for them.
  app.logger.exporter({
    levels: { default: 5 },
    export: (m) => lines.push(`${m.type} [${m.name}]: ${m.args.map(String).join(' ')}`),
  })
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  return app
}

/** Names of the tools registered from one server. */
export function mcpToolNames(app: DshApp, server: string): string[] {
  return app.tools
    .schemas()
    .map((tool) => tool.name)
    .filter((name) => name.startsWith(`mcp__${server}__`))
}

/** Every log line the app has written. */
export function logLines(app: DshApp): string[] {
  return captured.get(app) ?? []
}
