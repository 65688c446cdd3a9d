import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CheckTarget } from '../src/index.ts'
import type { RawTool } from '../src/tool-schemas.ts'

const require = createRequire(import.meta.url)

export const FIXTURE = fileURLToPath(
  new URL('../../../testing/testkit/src/seed-003-controller.ts', import.meta.url),
)

/** The absolute path of an installed package's only `bin` entry. */
export function binOf(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`)
  const manifest = require(manifestPath) as { bin: string | Record<string, string> }
  const relative = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!
  return resolve(dirname(manifestPath), relative)
}

// Marks the servers this test process starts, so the leftover-process checks never count a server that another
// package's tests (running at the same time under turbo) started from the same bin.
const RUN_MARK = `MCP_CHECK_TEST_RUN=${process.pid}-${Date.now()}`

export function nodeTarget(
  script: string,
  args: readonly string[] = [],
  env?: Record<string, string>,
): CheckTarget {
  const [name, value] = RUN_MARK.split('=') as [string, string]
  return { kind: 'stdio', command: process.execPath, args: [script, ...args], env: { ...env, [name]: value } }
}

/** A fresh temp dir for a server's files, removed by the returned cleanup. */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Pids of live processes whose command line contains `marker` (Linux /proc; empty elsewhere). */
export async function processesWith(marker: string): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs')
  const found: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (cmdline.includes(marker) && readFileSync(`/proc/${entry}/environ`, 'utf8').includes(RUN_MARK)) {
        found.push(Number(entry))
      }
    } catch {}
  }
  return found
}

/**
 * The processes with `marker` still alive once the OS has had its chance to reap them: polled a bounded number of
 * times instead of after a guessed delay, so a busy machine does not turn "left behind" into a false alarm.
 */
export async function processesLeft(marker: string): Promise<number[]> {
  let left = await processesWith(marker)
  for (let poll = 0; poll < 100 && left.length > 0; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    left = await processesWith(marker)
  }
  return left
}

/** The tools exactly as a real server lists them, through the official SDK client over stdio. */
export async function listedTools(
  bin: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<RawTool[]> {
  const client = new Client({ name: 'mcp-check-test', version: '0.0.0' })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    env,
    stderr: 'ignore',
  })
  await client.connect(transport)
  try {
    return (await client.listTools()).tools as unknown as RawTool[]
  } finally {
    await client.close()
  }
}
