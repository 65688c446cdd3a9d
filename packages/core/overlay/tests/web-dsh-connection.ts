import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context } from '@deepseek-ai/cordis'
import { type RawResponse, rawRequest } from '@dsh-harden/mcp-transport/fixtures'
// The real DSH app (testkit's cached install of `@deepseek-ai/dsh@0.1.0-rc.8`): `@deepseek-ai/dsh-client-connection`
// is not published as a library of its own use, so the tests take it from the app that ships it.
import { ensureDshApp } from '../../../testing/testkit/src/dsh-app.ts'
import { CONTRACTS_ENDPOINT, CONTRACTS_PATH } from '../src/web/index.ts'

/** rc.8's `@deepseek-ai/dsh-client-connection`, as `dsh web` loads it (its `connection` row: `trustedHosts` config). */
export async function dshConnection(): Promise<object> {
  const app = await ensureDshApp()
  const dsh = realpathSync(join(app.dir, 'node_modules', '@deepseek-ai', 'dsh', 'package.json'))
  const entry = createRequire(dsh).resolve('@deepseek-ai/dsh-client-connection')
  return import(pathToFileURL(entry).href) as Promise<object>
}

/** The web server fibers started by a test: disposing one closes its listening socket. */
export const started: { dispose(): unknown }[] = []

/** DSH's real web server and, over it, DSH's real connection with this deployment's `trustedHosts`. */
export async function startDshWeb(runtime: Context, trustedHosts: readonly string[] = []): Promise<number> {
  const WebServer = (await import('@deepseek-ai/dsh-host-webserver')).default
  const server = runtime.plugin(WebServer, { host: '127.0.0.1', port: 0 })
  started.push(server)
  await server
  const plug = runtime.plugin.bind(runtime) as (
    plugin: object,
    config: object,
  ) => ReturnType<Context['plugin']>
  const connection = plug(await dshConnection(), { trustedHosts: [...trustedHosts] })
  started.push(connection)
  await connection
  return (runtime as unknown as { webServer: { port: number } }).webServer.port
}

/** The panel's request with exactly these headers (mcp-transport's fixture: `fetch` would not let a test forge `Host`). */
export function askContracts(
  port: number,
  headers: Record<string, string>,
  revision: string | null = null,
  path = CONTRACTS_PATH,
): Promise<RawResponse> {
  const body = JSON.stringify({
    type: 'client-request',
    rpcId: 'r1',
    method: CONTRACTS_ENDPOINT,
    payload: { revision },
  })
  return rawRequest(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  })
}
