/**
 * Runs `work` with `process.argv[1]` naming the plugin's entry file. A plugin that resolves modules relative to the
 * main script (`createRequire(process.argv[1])`, a pattern of bundled plugins) then resolves from its own folder, and
 * a failure names the plugin's file as the importer instead of the CLI's `bin/dsh-harden.js`.
 */
export async function asMainScript<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = process.argv[1]
  process.argv[1] = file
  try {
    return await work()
  } finally {
    if (previous === undefined) process.argv.splice(1, 1)
    else process.argv[1] = previous
  }
}
