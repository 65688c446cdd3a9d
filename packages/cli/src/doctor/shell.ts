/**
 * One POSIX shell line, built so that whatever doctor interpolates into it (a home with a space, a folder named
 * `it's`) reaches the command as one word: a user pastes doctor's fix into their shell, and a path split at a space
 * writes a stray file and fixes nothing.
 */
export class ShellCommand {
  readonly line: string
  constructor(line: string) {
    this.line = line
  }
}

/** Characters a POSIX shell reads literally outside quotes (no glob, expansion, word split or redirection). */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/

/** A word as the shell reads it back byte for byte: as it is when plain, else single-quoted with `'\''` for `'`. */
export function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/**
 * A shell line from a template: each interpolated string becomes one quoted word, each interpolated `ShellCommand`
 * is spliced in as the command it already is (`${a} && ${b}`). The template's literal text is shell as written.
 */
export function shell(
  literals: TemplateStringsArray,
  ...values: readonly (string | ShellCommand)[]
): ShellCommand {
  let line = literals[0]!
  values.forEach((value, index) => {
    line += value instanceof ShellCommand ? value.line : shellWord(value)
    line += literals[index + 1]!
  })
  return new ShellCommand(line)
}
