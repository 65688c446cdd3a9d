import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * FIXTURE: a hand-written Streamable HTTP upstream (no SDK) whose answers a test scripts, to reproduce misbehaviours
 * a real server does not show on demand: an oversize answer, silence, a `tools/list` answer on the standalone GET
 * stream (as a resumed stream may carry). It records what reached it (headers, bodies).
 */
export interface Seen {
  readonly method: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export type Script = (
  message: { id?: unknown; method?: string | undefined },
  res: ServerResponse,
  upstream: RawUpstream,
) => void

export interface RawUpstream {
  readonly url: string
  readonly seen: Seen[]
  /** The open standalone GET stream, once a client opened one. */
  getStream: ServerResponse | undefined
  close(): Promise<void>
}

export async function startRawUpstream(script: Script): Promise<RawUpstream> {
  const upstream: RawUpstream = {
    url: '',
    seen: [],
    getStream: undefined,
    close: async () => {},
  }
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      upstream.seen.push({ method: req.method ?? '', headers: req.headers, body })
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.flushHeaders()
        upstream.getStream = res
        return
      }
      script(JSON.parse(body) as { id?: unknown; method?: string | undefined }, res, upstream)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()))
  const { port } = server.address() as AddressInfo
  return Object.assign(upstream, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  })
}

/** The JSON-RPC response text of a result. */
export const answer = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result })
