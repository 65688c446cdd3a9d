/**
 * Corpus loader for REAL MCP servers' `tools/list`, spoken to over real stdio.
 *
 * Every reference server is an installed npm package whose `bin` JS file is spawned with
 * `process.execPath` (never `npx`: there is no network). Two readers are offered:
 * - {@link listServerTools}: the official SDK `Client` + `StdioClientTransport` (validates the list the way
 *   DSH's `dsh-mcp-client` does, so a single malformed tool rejects the whole list);
 * - {@link listToolsRaw}: hand-written JSON-RPC (`initialize` / `notifications/initialized` / `tools/list`)
 *   with no validation, returning the tools exactly as the server sent them.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { forEachLine } from '@dsh-harden/mcp-check'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'

const require = createRequire(import.meta.url)

/** Launch details produced for one run inside a fresh temporary working directory. */
export interface ServerLaunch {
  readonly args: readonly string[]
  readonly env?: Readonly<Record<string, string>>
}

/** A real MCP server reachable over stdio from an installed package. */
export interface ServerDescriptor {
  /** Short stable id used in reports (`playwright`, `everything`, ...). */
  readonly id: string
  readonly packageName: string
  /** Version from the installed package.json. */
  readonly packageVersion: string
  /** Absolute path of the package's resolved `bin` JS file. */
  readonly binPath: string
  /** Arguments/env after the bin path, given a fresh per-run temp directory (removed after the run). */
  readonly launch: (workDir: string) => ServerLaunch | Promise<ServerLaunch>
}

export interface ListedTool {
  readonly name: string
  readonly inputSchema: unknown
  readonly outputSchema?: unknown
}

export interface ServerToolList {
  /** Descriptor id. */
  readonly server: string
  /** `serverInfo.version` from the `initialize` result. */
  readonly version: string
  readonly serverName: string
  readonly packageName: string
  readonly packageVersion: string
  readonly protocolVersion: string
  readonly tools: readonly ListedTool[]
  /** Number of `tools/list` pages read. */
  readonly pages: number
  /** Child pid, so callers can verify it is gone after close. */
  readonly pid: number | null
  readonly elapsedMs: number
  /** Captured stderr of the child (never printed unless the run fails). */
  readonly stderr: string
}

export interface ListOptions {
  /** Whole-run timeout (spawn, handshake, every page). Default 20 s. */
  readonly timeoutMs?: number
}

export const DEFAULT_TIMEOUT_MS = 20_000
const MAX_PAGES = 100
const STDERR_LIMIT = 64 * 1024

interface PackageJson {
  readonly version: string
  readonly bin?: string | Readonly<Record<string, string>>
}

/** Resolve a package's `bin` entry (the only one, or the one named `binName`) to an absolute JS path. */
export function resolvePackageBin(
  packageName: string,
  binName?: string,
): { binPath: string; version: string } {
  const manifestPath = require.resolve(`${packageName}/package.json`)
  const manifest = require(manifestPath) as PackageJson
  const { bin } = manifest
  let relative: string | undefined
  if (typeof bin === 'string') relative = bin
  else if (bin) {
    const entries = Object.entries(bin)
    relative = binName ? bin[binName] : entries.length === 1 ? entries[0]?.[1] : undefined
  }
  if (!relative) throw new Error(`${packageName}: cannot pick a bin entry from ${JSON.stringify(bin)}`)
  return { binPath: resolve(dirname(manifestPath), relative), version: manifest.version }
}

function descriptor(
  id: string,
  packageName: string,
  launch: (workDir: string) => ServerLaunch | Promise<ServerLaunch>,
): ServerDescriptor {
  const { binPath, version } = resolvePackageBin(packageName)
  return { id, packageName, packageVersion: version, binPath, launch }
}

/**
 * The reference corpus. Each launch uses a fresh temp dir, so no run touches the user's files:
 * - playwright: `--headless --isolated`; the browser is launched lazily on the first browser tool call,
 *   so `initialize` + `tools/list` need no browser binary and no network. `--output-dir` and
 *   `PLAYWRIGHT_BROWSERS_PATH` point into the temp dir so nothing outside it is read or written.
 * - everything: explicit `stdio` transport argument.
 * - filesystem: the temp dir (with one file in it) is the single allowed root.
 * - memory: `MEMORY_FILE_PATH` points at a temp JSONL file.
 * - sequential-thinking: `DISABLE_THOUGHT_LOGGING=true` keeps stderr quiet.
 */
export const REFERENCE_SERVERS: readonly ServerDescriptor[] = [
  descriptor('playwright', '@playwright/mcp', (workDir) => ({
    args: ['--headless', '--isolated', '--browser', 'chromium', '--output-dir', join(workDir, 'output')],
    env: { PLAYWRIGHT_BROWSERS_PATH: join(workDir, 'browsers') },
  })),
  descriptor('everything', '@modelcontextprotocol/server-everything', () => ({ args: ['stdio'] })),
  descriptor('filesystem', '@modelcontextprotocol/server-filesystem', async (workDir) => {
    const root = join(workDir, 'root')
    await mkdir(root, { recursive: true })
    await writeFile(join(root, 'hello.txt'), 'hello\n')
    return { args: [root] }
  }),
  descriptor('memory', '@modelcontextprotocol/server-memory', (workDir) => ({
    args: [],
    env: { MEMORY_FILE_PATH: join(workDir, 'memory.jsonl') },
  })),
  descriptor('sequential-thinking', '@modelcontextprotocol/server-sequential-thinking', () => ({
    args: [],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
  })),
]

export function referenceServer(id: string): ServerDescriptor {
  const found = REFERENCE_SERVERS.find((server) => server.id === id)
  if (!found) throw new Error(`unknown reference server "${id}"`)
  return found
}

/** Error raised when a server cannot be listed; carries the captured stderr. */
export class McpServerListError extends Error {
  readonly server: string
  readonly stderr: string
  /** Child pid if it was spawned (it has been shut down by the time this is thrown). */
  readonly pid: number | null
  constructor(server: string, message: string, stderr: string, pid: number | null, cause?: unknown) {
    super(`${server}: ${message}${stderr ? `\n--- stderr ---\n${stderr.slice(-4000)}` : ''}`, { cause })
    this.name = 'McpServerListError'
    this.server = server
    this.stderr = stderr
    this.pid = pid
  }
}

function appendCapped(buffer: string, chunk: string): string {
  const next = buffer + chunk
  return next.length > STDERR_LIMIT ? next.slice(-STDERR_LIMIT) : next
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms ${what}`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

async function withWorkDir<T>(server: ServerDescriptor, run: (workDir: string) => Promise<T>): Promise<T> {
  const workDir = await mkdtemp(join(tmpdir(), `dsh-harden-mcp-${server.id}-`))
  try {
    return await run(workDir)
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

/** `true` while a process with this pid exists (signal 0 probe). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Poll until `pid` is gone (reaped) or `ms` elapse; returns whether it is gone. */
export async function waitForExit(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((done) => setTimeout(done, 25))
  }
  return true
}

/** The SDK stdio transport, recording the protocol version the client negotiated in `initialize`. */
class RecordingStdioTransport extends StdioClientTransport {
  negotiatedProtocolVersion = ''
  /** Pid of the spawned child, kept after close (the SDK clears `pid` when it closes). */
  spawnedPid: number | null = null
  override async start(): Promise<void> {
    await super.start()
    this.spawnedPid = this.pid
  }
  setProtocolVersion(version: string): void {
    this.negotiatedProtocolVersion = version
  }
}

function toListedTool(tool: { name: string; inputSchema?: unknown; outputSchema?: unknown }): ListedTool {
  return tool.outputSchema === undefined
    ? { name: tool.name, inputSchema: tool.inputSchema }
    : { name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }
}

/**
 * List a server's tools through the official SDK client over stdio, following `nextCursor`.
 * The transport is always closed (stdin end → SIGTERM → SIGKILL, per the SDK), even on failure/timeout.
 */
export function listServerTools(
  server: ServerDescriptor,
  options: ListOptions = {},
): Promise<ServerToolList> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return withWorkDir(server, async (workDir) => {
    const launch = await server.launch(workDir)
    const started = performance.now()
    const transport = new RecordingStdioTransport({
      command: process.execPath,
      args: [server.binPath, ...launch.args],
      ...(launch.env ? { env: { ...launch.env } } : {}),
      cwd: workDir,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = appendCapped(stderr, chunk.toString('utf8'))
    })
    const client = new Client({ name: 'dsh-harden-regress', version: '0.1.0' }, { capabilities: {} })
    try {
      return await withTimeout(
        (async () => {
          await client.connect(transport, { timeout: timeoutMs })
          const tools: ListedTool[] = []
          let cursor: string | undefined
          let pages = 0
          do {
            const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
              timeout: timeoutMs,
            })
            pages++
            for (const tool of page.tools) tools.push(toListedTool(tool))
            cursor = page.nextCursor
          } while (cursor !== undefined && pages < MAX_PAGES)
          const info = client.getServerVersion()
          return {
            server: server.id,
            version: info?.version ?? '',
            serverName: info?.name ?? '',
            packageName: server.packageName,
            packageVersion: server.packageVersion,
            protocolVersion: transport.negotiatedProtocolVersion,
            tools,
            pages,
            pid: transport.spawnedPid,
            elapsedMs: Math.round(performance.now() - started),
            stderr,
          }
        })(),
        timeoutMs,
        'listing tools via the SDK client',
      )
    } catch (error) {
      throw new McpServerListError(server.id, (error as Error).message, stderr, transport.spawnedPid, error)
    } finally {
      // Client.close() closes the transport; close the transport too in case connect() never finished.
      await client.close().catch(() => {})
      await transport.close().catch(() => {})
      // The SDK does not wait for the exit after SIGKILL; do, so no caller sees a live child.
      if (transport.spawnedPid !== null) await waitForExit(transport.spawnedPid, 3000)
    }
  })
}

interface JsonRpcMessage {
  readonly jsonrpc?: string
  readonly id?: string | number | null
  readonly method?: string
  readonly params?: unknown
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

interface RawToolsPage {
  readonly tools?: unknown
  readonly nextCursor?: unknown
}

/** A tool exactly as the server sent it (no validation beyond "is an object"). */
export type RawTool = Readonly<Record<string, unknown>>

export interface RawServerToolList extends Omit<ServerToolList, 'tools'> {
  readonly tools: readonly ListedTool[]
  /** Every tool object verbatim, in order. */
  readonly rawTools: readonly RawTool[]
  readonly initializeResult: unknown
}

/**
 * List a server's tools with hand-written newline-delimited JSON-RPC over the child's stdio, without any
 * SDK schema validation. Server→client requests (`ping`, `roots/list`, ...) are answered (`{}` for ping,
 * method-not-found otherwise) so a chatty server cannot stall the handshake.
 */
export function listToolsRaw(
  server: ServerDescriptor,
  options: ListOptions = {},
): Promise<RawServerToolList> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return withWorkDir(server, async (workDir) => {
    const launch = await server.launch(workDir)
    const started = performance.now()
    const child = spawn(process.execPath, [server.binPath, ...launch.args], {
      cwd: workDir,
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    })
    const pid = child.pid ?? null
    let stderr = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr = appendCapped(stderr, chunk)
    })
    const exited = new Promise<void>((done) => child.once('close', () => done()))
    let nextId = 1
    const pending = new Map<
      number,
      { resolve: (value: JsonRpcMessage) => void; reject: (e: Error) => void }
    >()
    const failAll = (error: Error): void => {
      for (const waiter of pending.values()) waiter.reject(error)
      pending.clear()
    }
    child.once('error', (error) => failAll(error))
    child.once('close', (code, signal) =>
      failAll(new Error(`server exited (code ${code}, signal ${signal})`)),
    )
    child.stdin.on('error', () => {})

    const write = (message: object): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`)
    }
    const onMessage = (message: JsonRpcMessage): void => {
      if (message.method !== undefined) {
        if (message.id === undefined || message.id === null) return // notification (logging, list_changed...)
        if (message.method === 'ping') write({ jsonrpc: '2.0', id: message.id, result: {} })
        else
          write({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: `Method not found: ${message.method}` },
          })
        return
      }
      if (typeof message.id !== 'number') return
      const waiter = pending.get(message.id)
      if (!waiter) return
      pending.delete(message.id)
      waiter.resolve(message)
    }
    forEachLine(child.stdout, (line) => {
      try {
        onMessage(JSON.parse(line) as JsonRpcMessage)
      } catch {
        stderr = appendCapped(stderr, `[non-JSON stdout line] ${line.slice(0, 500)}\n`)
      }
    })
    const request = async (method: string, params: object): Promise<unknown> => {
      const id = nextId++
      const response = new Promise<JsonRpcMessage>((resolveResponse, reject) => {
        pending.set(id, { resolve: resolveResponse, reject })
      })
      write({ jsonrpc: '2.0', id, method, params })
      const message = await response
      if (message.error) throw new Error(`${method} failed: ${message.error.code} ${message.error.message}`)
      return message.result
    }

    try {
      return await withTimeout(
        (async () => {
          await new Promise<void>((ready, reject) => {
            child.once('spawn', () => ready())
            child.once('error', reject)
          })
          const initializeResult = (await request('initialize', {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: 'dsh-harden-regress-raw', version: '0.1.0' },
          })) as { protocolVersion?: string; serverInfo?: { name?: string; version?: string } } | undefined
          write({ jsonrpc: '2.0', method: 'notifications/initialized' })
          const rawTools: RawTool[] = []
          let cursor: string | undefined
          let pages = 0
          do {
            const page = (await request('tools/list', cursor === undefined ? {} : { cursor })) as
              | RawToolsPage
              | undefined
            pages++
            if (!page || !Array.isArray(page.tools)) throw new Error('tools/list result has no tools array')
            for (const tool of page.tools as unknown[]) {
              if (tool === null || typeof tool !== 'object' || Array.isArray(tool))
                throw new Error(`tools/list returned a non-object tool: ${JSON.stringify(tool)}`)
              rawTools.push(tool as RawTool)
            }
            cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined
          } while (cursor !== undefined && pages < MAX_PAGES)
          return {
            server: server.id,
            version: initializeResult?.serverInfo?.version ?? '',
            serverName: initializeResult?.serverInfo?.name ?? '',
            packageName: server.packageName,
            packageVersion: server.packageVersion,
            protocolVersion: initializeResult?.protocolVersion ?? '',
            tools: rawTools.map((tool) =>
              toListedTool({
                name: String(tool.name),
                inputSchema: tool.inputSchema,
                outputSchema: tool.outputSchema,
              }),
            ),
            rawTools,
            pages,
            pid,
            elapsedMs: Math.round(performance.now() - started),
            stderr,
            initializeResult,
          }
        })(),
        timeoutMs,
        'listing tools via raw JSON-RPC',
      )
    } catch (error) {
      throw new McpServerListError(server.id, (error as Error).message, stderr, pid, error)
    } finally {
      await closeChild(child, exited)
    }
  })
}

/** Same shutdown ladder as the SDK transport, but waits for the exit after SIGKILL too. */
async function closeChild(child: ReturnType<typeof spawn>, exited: Promise<void>): Promise<void> {
  const grace = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise<boolean>((done) => setTimeout(done, ms, false))])
  if (child.exitCode !== null || child.signalCode !== null) return
  try {
    child.stdin?.end()
  } catch {}
  if (await grace(2000)) return
  child.kill('SIGTERM')
  if (await grace(2000)) return
  child.kill('SIGKILL')
  await grace(2000)
}

export interface CorpusOptions extends ListOptions {
  readonly servers?: readonly ServerDescriptor[]
  /** How many servers to list at once (default 2, for a 2-core machine). */
  readonly concurrency?: number
  /** Use the raw JSON-RPC reader instead of the SDK client. */
  readonly raw?: boolean
}

export interface CorpusEntry {
  readonly server: string
  readonly ok: boolean
  readonly list?: ServerToolList
  readonly error?: Error
}

export interface ReferenceCorpus {
  readonly entries: readonly CorpusEntry[]
  readonly elapsedMs: number
}

/** List every reference server (small concurrency); a failing server is reported, not thrown. */
export async function loadReferenceCorpus(options: CorpusOptions = {}): Promise<ReferenceCorpus> {
  const servers = options.servers ?? REFERENCE_SERVERS
  const concurrency = Math.max(1, options.concurrency ?? 2)
  const list = options.raw ? listToolsRaw : listServerTools
  const started = performance.now()
  const entries: CorpusEntry[] = new Array(servers.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < servers.length) {
      const index = next++
      const server = servers[index]!
      try {
        entries[index] = { server: server.id, ok: true, list: await list(server, options) }
      } catch (error) {
        entries[index] = { server: server.id, ok: false, error: error as Error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, servers.length) }, worker))
  return { entries, elapsedMs: Math.round(performance.now() - started) }
}
