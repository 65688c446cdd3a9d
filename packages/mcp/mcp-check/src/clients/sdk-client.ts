import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { CLIENT_INFO } from '../protocol.ts'
import type { CheckTarget } from '../target.ts'
import { type ClientVerdict, describeSdkError, messageOf, packageVersion, within } from './verdict.ts'

const SDK_VERSION = packageVersion('@modelcontextprotocol/sdk', 'client/index.js')
const MAX_PAGES = 50

function transportFor(target: CheckTarget): Transport {
  if (target.kind === 'http')
    return new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: { ...target.headers } },
    })
  return new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...(process.env as Record<string, string>), ...target.env },
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: 'ignore',
  })
}

/**
 * The official TypeScript SDK `Client`, as every SDK-based host (DSH, the Inspector, most agents) uses it:
 * `connect` (initialize + version check) then `listTools`, which validates the whole list and rejects it on one
 * bad tool.
 */
export async function sdkClientVerdict(target: CheckTarget, timeoutMs: number): Promise<ClientVerdict> {
  const started = performance.now()
  const label = `@modelcontextprotocol/sdk ${SDK_VERSION} Client`
  const transport = transportFor(target)
  const client = new Client(CLIENT_INFO, { capabilities: {} })
  const elapsed = (): number => Math.round(performance.now() - started)
  try {
    try {
      await within(client.connect(transport, { timeout: timeoutMs }), timeoutMs + 500, 'initialize')
    } catch (error) {
      return {
        client: 'sdk',
        label,
        status: 'failed',
        detail: `connect failed: ${describeSdkError(error)}`,
        elapsedMs: elapsed(),
      }
    }
    let count = 0
    let cursor: string | undefined
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs })
        count += result.tools.length
        cursor = result.nextCursor
        if (cursor === undefined) break
      }
    } catch (error) {
      return {
        client: 'sdk',
        label,
        status: 'rejected',
        tools: 0,
        detail: `listTools rejected the whole list: ${describeSdkError(error)}`,
        elapsedMs: elapsed(),
      }
    }
    return {
      client: 'sdk',
      label,
      status: 'accepted',
      tools: count,
      detail: `listTools returned ${count} tools`,
      elapsedMs: elapsed(),
    }
  } catch (error) {
    return { client: 'sdk', label, status: 'failed', detail: messageOf(error), elapsedMs: elapsed() }
  } finally {
    await client.close().catch(() => {})
    await transport.close().catch(() => {})
  }
}
