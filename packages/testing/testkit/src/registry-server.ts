/**
 * Child-process entry of `startLocalRegistry` (./local-registry.ts): runs a real verdaccio from the config file named
 * by argv[2] on a free 127.0.0.1 port and prints one `READY_PREFIX<url>` line on stdout once it listens.
 *
 * It lives in its own process so that `close()` can always end it (SIGTERM, then SIGKILL) and so that verdaccio's
 * logger and globals never touch the test process. It also exits when its stdin closes: a parent that dies without
 * calling `close()` never leaves a registry behind.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runServer } from 'verdaccio'

/** The line prefix the parent waits for; the rest of the line is the registry URL. */
export const READY_PREFIX = 'dsh-harden-local-registry listening '

async function main(configPath: string): Promise<void> {
  const server = (await runServer(configPath)) as Server
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo
    process.stdout.write(`${READY_PREFIX}http://127.0.0.1:${port}/\n`)
  })
  const stop = () => server.close(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.stdin.on('end', stop)
  process.stdin.on('error', stop)
  process.stdin.resume()
}

// Only when run as a child (`node registry-server.ts <config>`); importing READY_PREFIX starts nothing.
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const configPath = process.argv[2]
  if (configPath === undefined) {
    process.stderr.write('registry-server: usage: node registry-server.ts <verdaccio config file>\n')
    process.exit(2)
  }
  main(configPath).catch((error: unknown) => {
    process.stderr.write(
      `registry-server: verdaccio did not start: ${error instanceof Error ? error.stack : String(error)}\n`,
    )
    process.exit(1)
  })
}
