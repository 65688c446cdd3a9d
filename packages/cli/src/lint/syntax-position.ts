import { execFile } from 'node:child_process'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where a syntax error is; `column` is unknown when Node printed the line without a caret. */
export interface SourcePosition {
  readonly file: string
  readonly line: number
  readonly column: number | undefined
}

const CHECK_TIMEOUT_MS = 5_000
/** A plugin's import graph can be large; a syntax error is looked for in at most this many of its files. */
const MAX_CHECKED_FILES = 20
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts'])
const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs'])

/**
 * Reads the frame Node prints above some syntax errors: `<path or file: URL>:<line>`, the source (for TypeScript a
 * few lines around it), and a caret under the offending token. Node adds it for CommonJS, TypeScript and ESM
 * linking errors, but not for an ES module that fails to parse — `locateSyntaxError` re-parses those.
 */
export function positionInFrame(text: string, file?: string): SourcePosition | undefined {
  const lines = text.split('\n')
  const header = /^(file:\/\/\S+|\/.*|\[stdin\]):(\d+)$/.exec(lines[0] ?? '')
  if (header === null) return undefined
  const line = Number(header[2])
  const where = header[1]!.startsWith('file:') ? fileURLToPath(header[1]!) : header[1]!
  const end = lines.findIndex((text) => /^(\w*Error|SyntaxError)\b/.test(text))
  const frame = lines.slice(1, end === -1 ? undefined : end)
  const caret = frame.findIndex((text) => /^\s*\^+\s*$/.test(text))
  let column: number | undefined
  if (caret > 0) column = frame[caret]!.indexOf('^') + 1
  else if (frame[0] === '') column = 1 // the end of the input: Node shows the empty line after the last one
  return { file: where === '[stdin]' ? (file ?? where) : where, line, column }
}

/**
 * Where a `SyntaxError` thrown by `import()` is. Node 22 gives an ES module's parse error no position at all, so
 * each candidate file (the entry first, then the other files the import resolved, newest first) is parsed again
 * by Node's own parser in a child process (`node --check`), until one fails.
 */
export async function locateSyntaxError(
  error: SyntaxError,
  entry: string,
  resolved: readonly string[],
): Promise<SourcePosition | undefined> {
  const framed = positionInFrame(error.stack ?? '')
  if (framed !== undefined) return framed
  const others = [...new Set(resolved)].reverse().filter((file) => file !== entry)
  const candidates = [entry, ...others].filter((file) => {
    const extension = extname(file)
    return JAVASCRIPT.has(extension) || TYPESCRIPT.has(extension)
  })
  for (const file of candidates.slice(0, MAX_CHECKED_FILES)) {
    const position = await checkFile(file)
    if (position !== undefined) return position
  }
  return undefined
}

async function checkFile(file: string): Promise<SourcePosition | undefined> {
  if (!TYPESCRIPT.has(extname(file))) {
    const { stderr } = await node(['--check', file])
    return positionInFrame(stderr, file)
  }
  // `node --check` does not strip types, so strip them first ('strip' keeps every position) and check the rest.
  const stripped = await node(['--no-warnings', '--eval', STRIP_TYPES, file])
  if (stripped.code !== 0) return positionInFrame(stripped.stderr, file)
  const inputType = extname(file) === '.cts' ? 'commonjs' : 'module'
  const { stderr } = await node(['--input-type', inputType, '--check', '-'], stripped.stdout)
  return positionInFrame(stderr, file)
}

const STRIP_TYPES =
  "process.stdout.write(require('node:module').stripTypeScriptTypes(require('node:fs').readFileSync(process.argv[1], 'utf8'), { mode: 'strip' }))"

function node(
  args: readonly string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...args],
      { timeout: CHECK_TIMEOUT_MS, encoding: 'utf8', maxBuffer: 4 * 1024 * 1024, env: {} },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, stdout, stderr })
      },
    )
    child.stdin?.end(input ?? '')
  })
}
