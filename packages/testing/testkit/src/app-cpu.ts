import { existsSync, readFileSync } from 'node:fs'

/**
 * The CPU a child process used, as the kernel accounts it at exit: GNU time's `wait4()` rusage of the child, which
 * includes every descendant the child itself waited for (an MCP server DSH reaped counts; one it left running does
 * not). A wrapper's own `process.resourceUsage()` would see none of it, and `/proc/<pid>/stat` is gone once Node has
 * reaped the child, so the measurement has to come from the process that waits.
 */
export const GNU_TIME = '/usr/bin/time'

export interface CpuTime {
  /** User-mode CPU seconds (10 ms resolution). */
  readonly userS: number
  /** Kernel-mode CPU seconds (10 ms resolution). */
  readonly systemS: number
  /** Wall-clock seconds, as GNU time saw them. */
  readonly wallS: number
  /** Peak resident set size of the child (the largest single process), in KiB. */
  readonly maxRssKiB: number
}

const FORMAT = '%U %S %e %M'

/**
 * The words to put before a command so GNU time writes its CPU use to `file` (for `HeadlessOptions.wrapper` in
 * `./dsh-app`). Throws, naming the fix, when GNU time is not installed.
 */
export function cpuTimeWrapper(file: string): string[] {
  if (!existsSync(GNU_TIME)) {
    throw new Error(
      `${GNU_TIME} is missing: the CPU of a child is read from GNU time's rusage at its exit. Fix: install GNU time ` +
        '(Debian/Ubuntu: `apt-get install time`), then rerun.',
    )
  }
  return [GNU_TIME, '-f', FORMAT, '-o', file]
}

/**
 * Reads what `cpuTimeWrapper(file)` recorded. GNU time writes a status line first when the command failed
 * ("Command exited with non-zero status 1"), so the figures are the last line of four numbers. Pure apart from the read.
 */
export function readCpuTime(file: string): CpuTime {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
  return parseCpuTime(text, file)
}

/** Parses GNU time's `%U %S %e %M` output; `where` names the file in the error. Pure. */
export function parseCpuTime(text: string, where: string): CpuTime {
  const line = text
    .split('\n')
    .map((candidate) => candidate.trim())
    .filter((candidate) => /^\d+(\.\d+)? \d+(\.\d+)? \d+(\.\d+)? \d+$/.test(candidate))
    .at(-1)
  if (line === undefined) {
    throw new Error(
      `no CPU figures in ${where} (GNU time output: ${JSON.stringify(text.slice(0, 200))}); the command probably never ` +
        `ran under ${GNU_TIME}. Fix: check that the command starts, and that nothing else writes that file.`,
    )
  }
  const [userS, systemS, wallS, maxRssKiB] = line.split(' ').map(Number) as [number, number, number, number]
  return { userS, systemS, wallS, maxRssKiB }
}
