import { execFile } from 'node:child_process'
import yaml from 'js-yaml'
import { JsExpression, PATCH_SCHEMA } from './user-layer.ts'

/** One row of the composed profile tree, as `dsh --dump-config` prints it. */
export interface ComposedRow {
  readonly id: string
  readonly name: string | undefined
  /** `unknown` when `disabled` is a `!!js` expression DSH evaluates only at boot. */
  readonly disabled: boolean | 'unknown'
}

export type Composed =
  | { readonly kind: 'rows'; readonly rows: ReadonlyMap<string, ComposedRow> }
  | { readonly kind: 'failed'; readonly reason: string }

const DUMP_TIMEOUT_MS = 30_000

/**
 * The profile as DSH composes it: `dsh --profile <p> --dump-config` (rc.8 apps/cli/src/dump-config.ts
 * `runDumpConfig`) applies every bundle layer, the profile's own layer and `$DSH_HOME/cordis.patch.yml` through the
 * include plugin's own patch algorithm, without booting. Run with the user's own `dsh` and environment.
 */
export function dumpConfig(bin: string, profile: string, env: NodeJS.ProcessEnv): Promise<Composed> {
  return new Promise((resolve) => {
    execFile(
      bin,
      ['--profile', profile, '--dump-config'],
      { env, timeout: DUMP_TIMEOUT_MS, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          resolve({ kind: 'failed', reason: thrownLine(stderr) ?? error.message })
          return
        }
        resolve(parseDump(stdout))
      },
    )
  })
}

/**
 * The thrown error's own line (`Error: dsh: cannot resolve profile bundle …`), not the source position and code line
 * Node prints above it; else the first line.
 */
function thrownLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  return lines.find((line) => /^[A-Za-z]*(Error|Exception)\b[^:]*:/.test(line)) ?? lines[0]
}

/** Every row of a dump, nested group children included (one pass with an explicit stack). Pure. */
export function parseDump(text: string): Composed {
  let value: unknown
  try {
    value = yaml.load(text, { schema: PATCH_SCHEMA })
  } catch (error) {
    return { kind: 'failed', reason: `the dump is not YAML: ${String(error)}` }
  }
  const rows = new Map<string, ComposedRow>()
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) stack.push(item[index])
      continue
    }
    if (typeof item !== 'object' || item === null) continue
    const row = item as { id?: unknown; name?: unknown; disabled?: unknown; config?: unknown }
    if (typeof row.id === 'string' && !rows.has(row.id)) {
      rows.set(row.id, {
        id: row.id,
        name: typeof row.name === 'string' ? row.name : undefined,
        disabled: row.disabled instanceof JsExpression ? 'unknown' : row.disabled === true,
      })
    }
    // A group row (cordis-plugin-group) holds its children as a row list in `config`.
    if (Array.isArray(row.config)) stack.push(row.config)
  }
  return { kind: 'rows', rows }
}
