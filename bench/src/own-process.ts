import { spawn } from 'node:child_process'
import type { SizeResult } from './gateway-report.ts'
import type { ComparisonResult } from './harness.ts'

/** What one module printed with `--json`: its comparisons and sizes, in order. */
export type ModuleOutput = (ComparisonResult | SizeResult)[]

/**
 * Runs one bench module in a Node process of its own (`entry`, this script, with `--only=<name> --json`) and returns
 * its output. A module run after another in the same process inherits its JIT state and heap: Run 11 in the README
 * measured stock's `register()` 10–15% faster after the assembly bench than on its own, which moved the ratio from
 * 1.39–1.45× to 1.54–1.62×. The child's stderr is this process's.
 */
export async function runInOwnProcess(
  name: string,
  passthrough: readonly string[],
  entry: string | undefined = process.argv[1],
): Promise<ModuleOutput> {
  if (entry === undefined) throw new Error('bench: cannot tell which script to run a module with')
  const child = spawn(
    process.execPath,
    [...process.execArgv, entry, `--only=${name}`, '--json', ...passthrough],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  if (code !== 0) throw new Error(`bench module ${name} exited with code ${code}; its error is above`)
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModuleOutput
}
