import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Io } from '../command.ts'

/** The input could not be used; the message names the file and, for bad JSON, the line, column and position. */
export class SanitizeInputError extends Error {
  override readonly name = 'SanitizeInputError'
}

/** The tools read from the input, and how to put projected tools back into the same container. */
export interface ToolsInput {
  readonly tools: readonly unknown[]
  readonly rewrap: (tools: readonly unknown[]) => unknown
}

export async function readInput(input: string, io: Io): Promise<{ text: string; shown: string }> {
  if (input === '-') {
    if (io.stdin === undefined) throw new SanitizeInputError('stdin: this caller provides no standard input')
    return { text: await io.stdin(), shown: 'stdin' }
  }
  try {
    return { text: await readFile(resolve(io.cwd, input), 'utf8'), shown: input }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : error instanceof Error
            ? error.message
            : String(error)
    throw new SanitizeInputError(`${input}: cannot read it (${reason})`)
  }
}

/** `[...]`, `{ tools: [...] }` (a tools/list result) or `{ result: { tools: [...] } }` (its JSON-RPC response). */
export function parseTools(text: string, shown: string): ToolsInput {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new SanitizeInputError(
      `${shown}: not valid JSON: ${positioned(error instanceof Error ? error.message : String(error), text)}`,
    )
  }
  if (Array.isArray(value)) return { tools: value, rewrap: (tools) => tools }
  if (isObject(value) && Array.isArray(value.tools)) {
    return { tools: value.tools, rewrap: (tools) => ({ ...value, tools }) }
  }
  if (isObject(value) && isObject(value.result) && Array.isArray(value.result.tools)) {
    const result = value.result
    return {
      tools: result.tools as unknown[],
      rewrap: (tools) => ({ ...value, result: { ...result, tools } }),
    }
  }
  throw new SanitizeInputError(
    `${shown}: expected a tools/list result ({ "tools": [...] }), its JSON-RPC response, or an array of tools; got ${describe(value)}`,
  )
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (isObject(value)) {
    const keys = Object.keys(value)
    return keys.length === 0 ? 'an empty object' : `an object with the keys ${keys.slice(0, 8).join(', ')}`
  }
  return typeof value
}

/** V8 names the position; add the line and column when it does not, so the user can find it in an editor. */
function positioned(message: string, text: string): string {
  if (/\(line \d+ column \d+\)/.test(message)) return message
  const match = /at position (\d+)/.exec(message)
  if (match === null) return message
  const position = Number(match[1])
  const before = text.slice(0, position).split('\n')
  return `${message} (line ${before.length} column ${before.at(-1)!.length + 1})`
}
