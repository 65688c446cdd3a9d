import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The MCP SDK module instance that `@deepseek-ai/dsh-mcp-client` itself imports. A patch only takes effect on the
 * very class object DSH constructs (`new Client(...)` in `connectGeneration`), and a package manager may give DSH a
 * different copy of the SDK than the one this package resolves, so the copy is found from DSH's own location,
 * through the SDK's `exports` map with the `import` condition (the CommonJS build is a different class).
 */
export interface McpSdk {
  readonly Client: { prototype: object }
  /** The schema DSH passes to `client.request` for `tools/list`; compared by identity. */
  readonly ListToolsResultSchema: SafeParser
  /** A loose result schema (keeps every key): lets the raw page through to intake. */
  readonly ResultSchema: SafeParser
  /** Where the SDK was loaded from, for diagnostics. */
  readonly location: string
}

export interface SafeParser {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown }
}

type ExportTarget = string | { readonly [condition: string]: ExportTarget } | null

function pick(target: ExportTarget | undefined): string | undefined {
  if (typeof target === 'string' || target === null || target === undefined) return target ?? undefined
  for (const condition of ['import', 'node', 'default']) {
    const found = pick(target[condition])
    if (found !== undefined) return found
  }
  return undefined
}

/** Resolves `subpath` (`./client/index.js`) through an `exports` map, including `./*` patterns. */
export function resolveExport(exports: Record<string, ExportTarget>, subpath: string): string | undefined {
  const exact = pick(exports[subpath])
  if (exact !== undefined) return exact
  for (const [key, target] of Object.entries(exports)) {
    const star = key.indexOf('*')
    if (star === -1) continue
    const prefix = key.slice(0, star)
    const suffix = key.slice(star + 1)
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix) || subpath.length < key.length - 1) continue
    const match = subpath.slice(prefix.length, subpath.length - suffix.length)
    const chosen = pick(target)
    if (chosen !== undefined) return chosen.replaceAll('*', match)
  }
  return undefined
}

/** Walks up from `from` the way Node resolves a bare specifier, to the SDK package directory. */
function findSdkDirectory(from: string): string {
  let directory = from
  for (;;) {
    const candidate = join(directory, 'node_modules', '@modelcontextprotocol', 'sdk')
    if (existsSync(join(candidate, 'package.json'))) return candidate
    const parent = dirname(directory)
    if (parent === directory) throw new Error(`no @modelcontextprotocol/sdk is reachable from ${from}`)
    directory = parent
  }
}

async function importExport(sdkDirectory: string, subpath: string): Promise<Record<string, unknown>> {
  const manifest = JSON.parse(readFileSync(join(sdkDirectory, 'package.json'), 'utf8')) as {
    exports?: Record<string, ExportTarget>
  }
  const relative = manifest.exports === undefined ? undefined : resolveExport(manifest.exports, subpath)
  if (relative === undefined) throw new Error(`${sdkDirectory} does not export ${subpath}`)
  return (await import(pathToFileURL(join(sdkDirectory, relative)).href)) as Record<string, unknown>
}

/** The SDK instance reachable from a module file (default: the one DSH's `@deepseek-ai/dsh-mcp-client` imports). */
export async function loadMcpSdk(fromFile?: string): Promise<McpSdk> {
  const origin = fromFile ?? createRequire(import.meta.url).resolve('@deepseek-ai/dsh-mcp-client')
  const location = findSdkDirectory(dirname(origin))
  const client = await importExport(location, './client/index.js')
  const types = await importExport(location, './types.js')
  return {
    Client: client.Client as McpSdk['Client'],
    ListToolsResultSchema: types.ListToolsResultSchema as SafeParser,
    ResultSchema: types.ResultSchema as SafeParser,
    location,
  }
}
