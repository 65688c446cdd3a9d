/**
 * Sends whatever the linted plugin prints to stderr while it loads, so stdout carries only the report (and `--json`
 * stays parseable). `console.log` writes through `process.stdout.write`, so replacing that one method covers both.
 * Returns the function that restores stdout.
 */
export function divertStdout(): () => void {
  const stdout = process.stdout
  const hadOwn = Object.hasOwn(stdout, 'write')
  const original = stdout.write
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write
  return () => {
    if (hadOwn) stdout.write = original
    else delete (stdout as Partial<typeof stdout>).write
  }
}
