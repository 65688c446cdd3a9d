import { existsSync, readFileSync } from 'node:fs'
import yaml from 'js-yaml'
import type { Fix } from './finding.ts'
import { type ShellCommand, shell, shellWord } from './shell.ts'

/**
 * DSH's patch dialect: YAML plus `!!js <expression>` (dsh-app-boot `entryListSchema`). Doctor never evaluates an
 * expression; it keeps its text, so a row whose `disabled` is an expression is reported as undecidable.
 */
export class JsExpression {
  readonly source: string
  constructor(source: string) {
    this.source = source
  }
}

const JS_TYPE = new yaml.Type('tag:yaml.org,2002:js', {
  kind: 'scalar',
  construct: (data: unknown) => new JsExpression(String(data)),
})
export const PATCH_SCHEMA = yaml.DEFAULT_SCHEMA.extend([JS_TYPE])

export type UserLayer =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly line: number; readonly column: number; readonly reason: string }
  | { readonly kind: 'not-a-list'; readonly what: string }
  /** `flow`: the list is written `[…]` (as DSH's template `[]` is), so block rows cannot be appended to it. */
  | {
      readonly kind: 'list'
      readonly rows: readonly unknown[]
      readonly flow: boolean
      readonly text: string
    }

/** Reads a profile's `cordis.patch.yml` the way DSH's `loadOverlayPatches` does: one YAML array. */
export function readUserLayer(file: string): UserLayer {
  if (!existsSync(file)) return { kind: 'missing' }
  const text = readFileSync(file, 'utf8')
  let value: unknown
  try {
    value = yaml.load(text, { schema: PATCH_SCHEMA, filename: file })
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      return {
        kind: 'invalid',
        line: (error.mark?.line ?? 0) + 1,
        column: (error.mark?.column ?? 0) + 1,
        reason: error.reason,
      }
    }
    throw error
  }
  if (value === undefined || value === null) return { kind: 'list', rows: [], flow: false, text }
  if (!Array.isArray(value))
    return { kind: 'not-a-list', what: typeof value === 'object' ? 'a mapping' : `a ${typeof value}` }
  return { kind: 'list', rows: value, flow: firstValueLine(text)?.startsWith('[') === true, text }
}

/** The first line that is neither blank nor a comment. */
function firstValueLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('#'))
}

/** A file's 1-based line numbers that hold only `[]` (DSH's template list), for naming the line to delete. */
export function emptyFlowListLines(file: string): number[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  return lines.flatMap((line, index) => (line.trim() === '[]' ? [index + 1] : []))
}

/** `printf` with YAML rows as its format (rows hold no `%` and no backslash; `\n` is printf's newline). */
function printfOf(rows: string): ShellCommand {
  return shell`printf -- ${rows.replaceAll('\n', '\\n')}`
}

/** The command that writes `rows` (block YAML list items ending in a newline) as the whole of `file`. */
export function writeRowsCommand(file: string, rows: string): ShellCommand {
  return shell`${printfOf(rows)} > ${file}`
}

/**
 * The exact command that adds `rows` (block YAML list items ending in a newline) to a profile's user layer:
 * written over the file when it holds only comments and DSH's template `[]` (appending below `[]` is a
 * `YAMLException`), appended when it is a block list, an edit instruction otherwise.
 */
export function addRowsFix(file: string, layer: UserLayer, rows: string): Fix {
  if (layer.kind === 'missing') return writeRowsCommand(file, rows)
  if (layer.kind === 'list' && layer.rows.length === 0) return writeRowsCommand(file, rows)
  if (layer.kind === 'list' && !layer.flow) {
    const newline = layer.text === '' || layer.text.endsWith('\n') ? '' : '\n'
    return shell`${printfOf(`${newline}${rows}`)} >> ${file}`
  }
  return `edit ${shellWord(file)}: make it a block YAML list (one \`- \` row per line, no \`[…]\`) and add the rows ${JSON.stringify(rows)}`
}
