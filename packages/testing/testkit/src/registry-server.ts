/**
 * Child-process entry of `startLocalRegistry` (./local-registry.ts): runs a real verdaccio from the config file named
 * by argv[2] on 127.0.0.1 at the port in argv[3] (0: a free one) and prints one `READY_PREFIX<url>` line on stdout
 * once it listens.
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

async function main(configPath: string, port: number): Promise<void> {
  const server = (await runServer(configPath)) as Server
  server.once('error', (error) => {
    process.stderr.write(`registry-server: cannot listen on 127.0.0.1:${port}: ${error.message}\n`)
    process.exit(1)
  })
  server.listen(port, '127.0.0.1', () => {
    const bound = (server.address() as AddressInfo).port
    process.stdout.write(`${READY_PREFIX}http://127.0.0.1:${bound}/\n`)
  })
  const stop = () => server.close(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.stdin.on('end', stop)
  process.stdin.on('error', stop)
  process.stdin.resume()
}

// Only when run as a child (`node registry-server.ts <config>`); importing READY_PREFIX starts nothing.
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const [configPath, port = '0'] = process.argv.slice(2)
  if (configPath === undefined || !/^\d{1,5}$/.test(port)) {
    process.stderr.write('registry-server: usage: node registry-server.ts <verdaccio config file> [port]\n')
    process.exit(2)
  }
  main(configPath, Number(port)).catch((error: unknown) => {
    process.stderr.write(
      `registry-server: verdaccio did not start: ${error instanceof Error ? error.stack : String(error)}\n`,
    )
    process.exit(1)
  })
}
