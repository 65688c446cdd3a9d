import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { HardenOverlay } from '../src/index.ts'

export interface ToolsView {
  register(definition: unknown): () => void
  get(name: string): { parameters: unknown } | undefined
  schemas(): { name: string; parameters: unknown }[]
}

/** A real DSH tool registry: the same two plugins DSH's own tools tests mount. */
export async function dshRuntime(): Promise<Context & { tools: ToolsView }> {
  const app = new Context()
  await app.plugin(SystemPrompt)
  await app.plugin(ToolRuntime)
  return app as Context & { tools: ToolsView }
}

/** The parameters DSH's request assembly sends for `name` (`SystemPrompt.assemble()`, which the route projects). */
export async function wireParameters(app: Context, name: string, scope?: object): Promise<unknown> {
  const assembler = app as unknown as {
    systemPrompt: { assemble(context: object): Promise<{ tools: { name: string; parameters: unknown }[] }> }
  }
  const { tools } = await assembler.systemPrompt.assemble(scope === undefined ? {} : { scope })
  return tools.find((schema) => schema.name === name)?.parameters
}

export function tool(name: string, parameters: unknown): Record<string, unknown> {
  return {
    name,
    description: name,
    parameters,
    output: { schema: {}, render: () => [] },
    execute: async () => 'ok',
  }
}

export function toolPlugin(name: string, ...definitions: Record<string, unknown>[]) {
  return {
    name,
    inject: ['tools'],
    apply(ctx: { tools: ToolsView }) {
      for (const definition of definitions) ctx.tools.register(definition)
    },
  }
}

export const BARE_TABLE = { images: { type: 'array', items: { type: 'string' } }, prompt: { type: 'string' } }
export const VALID = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }

/** Collects what is written to stderr until `restore()`, so tests can read the notices a headless user sees. */
export function captureStderr(): { text(): string; restore(): void } {
  const chunks: string[] = []
  const write = process.stderr.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk))
    return true
  }) as typeof process.stderr.write
  return {
    text: () => chunks.join(''),
    restore: () => {
      process.stderr.write = write
    },
  }
}

export const ANY_SLOT = { type: 'object', properties: { input: {} }, required: ['input'] }
export const NULLABLE_NOTE = {
  type: 'object',
  properties: { note: { type: ['string', 'null'] } },
  required: ['note'],
}

/** Imports a package as DSH's own tools package loads it (scope tags and services are module state of that copy). */
export async function besideDshTools<T>(name: string): Promise<T> {
  const tools = realpathSync(new URL('../node_modules/@deepseek-ai/dsh-tools/package.json', import.meta.url))
  return import(pathToFileURL(createRequire(tools).resolve(name)).href) as Promise<T>
}

/**
 * A real DSH registry with the overlay (configured by `overlay`; `'stock'` leaves it out) and a third-party plugin's
 * two tools: `any_json` (`ANY_SLOT`), whose calls' arguments `received` collects, and `maybe_note` (`NULLABLE_NOTE`).
 */
export async function thirdPartySession(overlay?: object | 'stock') {
  const app = await dshRuntime()
  if (overlay !== 'stock') await app.plugin(HardenOverlay, overlay)
  const received: unknown[] = []
  const recording = tool('any_json', ANY_SLOT)
  recording.execute = async (args: unknown) => {
    received.push(args)
    return 'ok'
  }
  await app.plugin(toolPlugin('third-party', recording, tool('maybe_note', NULLABLE_NOTE)))
  return { app, received }
}
