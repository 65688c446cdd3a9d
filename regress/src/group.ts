import type { Row } from './row.ts'

/** What a group may do besides returning rows. */
export interface GroupContext {
  /**
   * Adds a fact to the report header, e.g. `app install: 31 s, from cache: no`. Notes are for facts about the run
   * (timings, what was skipped and why), never a verdict.
   */
  note(text: string): void
  /**
   * The log file this process's stderr goes to (and so every child that inherits it). Put diagnostics there, never
   * into a row; a group that captures a child's stderr itself appends it here with `log`.
   */
  readonly logPath: string
  /** Appends text to the log file, prefixed with the group's name. */
  log(text: string): void
}

/** A group's module: `export async function run(context) { return rows }`. */
export interface GroupModule {
  run(context: GroupContext): Promise<readonly Row[]>
}

/**
 * One section of the report. `main.ts` lists the groups in report order; `--only <name>` runs some of them. Every
 * row a group returns must carry `group: <name>`.
 */
export interface Group {
  readonly name: string
  /** One line for `--help`: what the group's rows are about. */
  readonly title: string
  /** Imports the group's module only when it runs, so a group that fails to load fails alone. */
  load(): Promise<GroupModule>
}

export function group(name: string, title: string, load: () => Promise<GroupModule>): Group {
  return { name, title, load }
}
