import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'

/** What one real client made of the server. */
export interface ClientVerdict {
  /** `sdk`, `dsh-stock`, `dsh-overlay`, `dsh-intake`, `claude-code`. */
  readonly client: string
  /** The client and its version, for the report. */
  readonly label: string
  /**
   * `accepted`: the client took the whole tool list. `partial`: it took some tools and left others out.
   * `rejected`: it connected but registered no tools. `failed`: it never got as far as the list.
   * `unavailable`: the client could not be run here (not installed, or not landed yet).
   */
  readonly status: 'accepted' | 'partial' | 'rejected' | 'failed' | 'unavailable'
  /** Tools the client ended up with, when it got that far. */
  readonly tools?: number | undefined
  /** One line: what the client said, with the path of the first rejected field when there is one. */
  readonly detail: string
  readonly elapsedMs: number
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

interface ZodIssueLike {
  readonly path?: readonly PropertyKey[]
  readonly message?: string
}

/**
 * The SDK rejects a list with a ZodError whose message is the JSON array of issues; say it the way Claude Code does:
 * `Invalid input: expected "object" (at tools.0.inputSchema.type) (+12 more)`.
 */
export function describeSdkError(error: unknown): string {
  const text = messageOf(error)
  // The SDK's timeout names no bound; say which one ran out, so a report shows every wait was the one configured.
  const timeout =
    error instanceof McpError && error.code === ErrorCode.RequestTimeout ? error.data : undefined
  if (
    typeof timeout === 'object' &&
    timeout !== null &&
    typeof (timeout as { timeout?: unknown }).timeout === 'number'
  )
    return `${text.split('\n')[0]} after ${(timeout as { timeout: number }).timeout} ms`
  let issues: unknown
  try {
    issues = JSON.parse(text)
  } catch {
    return text.split('\n')[0] ?? text
  }
  if (!Array.isArray(issues) || issues.length === 0) return text
  const [first] = issues as ZodIssueLike[]
  const path = (first?.path ?? []).map(String).join('.')
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : ''
  return `${first?.message ?? 'invalid'}${path === '' ? '' : ` (at ${path})`}${more}`
}

/** Race `work` against a deadline; the loser is left to the caller's cleanup. */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The installed version of a package whose `exports` hide its package.json: walk up from an entry it exports. */
export function packageVersion(name: string, entry: string): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(entry === '' ? name : `${name}/${entry}`))
    for (let depth = 0; depth < 6; depth++) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name?: string
          version?: string
        }
        if (manifest.name === name) return manifest.version ?? '?'
      } catch {}
      dir = dirname(dir)
    }
  } catch {}
  return '?'
}
