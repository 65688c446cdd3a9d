import { type ChildProcess, spawn } from 'node:child_process'
import { stopChild } from '@dsh-harden/mcp-client/fixtures'

/** A raw newline-delimited JSON-RPC peer over a child's stdio: sends text, collects every line it answers with. */
export class RawPeer {
  readonly child: ChildProcess
  readonly lines: string[] = []
  private buffer = ''
  private waiters: (() => void)[] = []
  readonly closed: Promise<number | null>

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    this.child.stdout!.setEncoding('utf8')
    this.child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk
      let newline = this.buffer.indexOf('\n')
      while (newline !== -1) {
        this.lines.push(this.buffer.slice(0, newline))
        this.buffer = this.buffer.slice(newline + 1)
        newline = this.buffer.indexOf('\n')
      }
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.child.stderr!.resume()
    this.closed = new Promise((done) => this.child.once('close', (code) => done(code)))
  }

  send(message: unknown): void {
    this.child.stdin!.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`)
  }

  /** The first line (from `from` on) matching `test`, within `ms`. */
  async line(test: (line: string) => boolean, ms = 10_000, from = 0): Promise<string> {
    const deadline = Date.now() + ms
    for (;;) {
      const found = this.lines.slice(from).find(test)
      if (found !== undefined) return found
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no matching line within ${ms} ms; got ${this.lines.length} lines`)
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          wake()
        })
      })
    }
  }

  async initialize(): Promise<void> {
    this.send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    await this.line((l) => l.includes('"id":"init"'))
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  }

  stop(): Promise<void> {
    this.child.stdin!.end()
    return stopChild(this.child)
  }
}
