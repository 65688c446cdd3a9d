import { Worker } from 'node:worker_threads'
import type { CheckTarget } from '../target.ts'
import { type ClientVerdict, messageOf } from './verdict.ts'

export interface DshRunOptions {
  /** Load the dsh-harden overlay and tolerant MCP intake before `dsh-mcp-client`. */
  readonly hardened: boolean
  readonly timeoutMs: number
}

/**
 * DSH's real MCP bridge, stock or hardened, each in a worker thread of its own: the tolerant intake patches the SDK
 * `Client` class process-wide, so a stock run beside a hardened one in the same module graph would be hardened too;
 * and a worker takes the SDK's pending 60 s request timers with it when it is terminated.
 */
export function dshClientVerdict(target: CheckTarget, options: DshRunOptions): Promise<ClientVerdict> {
  const started = performance.now()
  const client = options.hardened ? 'dsh-hardened' : 'dsh-stock'
  const failed = (detail: string): ClientVerdict => ({
    client,
    label: `@deepseek-ai/dsh-mcp-client${options.hardened ? ' + dsh-harden' : ''}`,
    status: 'failed',
    detail,
    elapsedMs: Math.round(performance.now() - started),
  })
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./dsh-worker.ts', import.meta.url), {
      workerData: { target, options },
      stdout: true,
      stderr: true,
    })
    // The worker's own output (DSH logs nothing to the console, but a plugin might) is not part of the report.
    worker.stdout.resume()
    worker.stderr.resume()
    let settled = false
    const finish = (verdict: ClientVerdict): void => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      void worker.terminate().then(() => resolve(verdict))
    }
    // The worker bounds its own wait; this only guards against a worker that never reports.
    const deadline = setTimeout(
      () => finish(failed(`the DSH run did not report within ${options.timeoutMs + 10_000} ms`)),
      options.timeoutMs + 10_000,
    )
    worker.once('message', (verdict: ClientVerdict) => finish(verdict))
    worker.once('error', (error) => finish(failed(`the DSH run failed: ${messageOf(error)}`)))
    worker.once('exit', (code) => finish(failed(`the DSH run exited (code ${code}) without a verdict`)))
  })
}
