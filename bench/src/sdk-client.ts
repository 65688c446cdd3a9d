import { Client, StdioClientTransport, waitForExit } from './gateway-deps.ts'

/** An official-SDK client over stdio to a command, the peer of every per-call benchmark. */
export interface OpenClient {
  readonly client: Client
  close(): Promise<void>
}

export interface StdioCommand {
  readonly command: string
  readonly args: readonly string[]
  readonly env?: Readonly<Record<string, string>> | undefined
  readonly cwd?: string | undefined
}

export async function openStdioClient(target: StdioCommand): Promise<OpenClient> {
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...(process.env as Record<string, string>), ...target.env },
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: 'ignore',
  })
  const client = new Client({ name: 'dsh-harden-bench', version: '0.1.0' })
  await client.connect(transport)
  const pid = transport.pid
  return {
    client,
    close: async () => {
      await client.close().catch(() => {})
      if (pid !== null) await waitForExit(pid, 5000)
    },
  }
}

/** `count` sequential calls, each timed on its own (ns), so medians and tails can be read per call. */
export async function timedCalls(count: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint()
    await call(i)
    samples.push(Number(process.hrtime.bigint() - start))
  }
  return samples
}
