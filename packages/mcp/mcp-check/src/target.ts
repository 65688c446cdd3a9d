/** The server under check: a command spoken to over stdio, or a Streamable HTTP endpoint. */
export type CheckTarget =
  | {
      readonly kind: 'stdio'
      readonly command: string
      readonly args: readonly string[]
      /** Extra environment for the server, given to every client (each client adds its own ambient env). */
      readonly env?: Readonly<Record<string, string>> | undefined
      readonly cwd?: string | undefined
    }
  | {
      readonly kind: 'http'
      readonly url: string
      readonly headers?: Readonly<Record<string, string>> | undefined
    }

/** One line naming the target, for reports. */
export function describeTarget(target: CheckTarget): string {
  if (target.kind === 'http') return target.url
  return [target.command, ...target.args].map(quoteArg).join(' ')
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`
}
