import { appendFileSync } from 'node:fs'
import type { Group, GroupContext } from './group.ts'
import type { Row } from './row.ts'

/** A group that threw, or returned a row filed under another group: the run fails and the report says so. */
export interface GroupFailure {
  readonly group: string
  readonly error: string
}

export interface RegressRun {
  /** Header facts contributed by the groups, in the order they were added. */
  readonly notes: readonly string[]
  /** Where child-process stderr and diagnostics went. */
  readonly logPath: string
  readonly rows: readonly Row[]
  readonly failures: readonly GroupFailure[]
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** Runs the groups one after another (they share two cores with everything else), each isolated from the others' failures. */
export async function runGroups(groups: readonly Group[], logPath: string): Promise<RegressRun> {
  const notes: string[] = []
  const rows: Row[] = []
  const failures: GroupFailure[] = []
  for (const group of groups) {
    const context: GroupContext = {
      note: (text) => notes.push(text),
      logPath,
      log: (text) => appendFileSync(logPath, `[${group.name}] ${text.endsWith('\n') ? text : `${text}\n`}`),
    }
    context.log(`group ${group.name} starts`)
    try {
      const produced = await (await group.load()).run(context)
      const misfiled = produced.filter((row) => row.group !== group.name)
      if (misfiled.length > 0)
        failures.push({
          group: group.name,
          error: `rows filed under another group: ${misfiled.map((row) => `${row.id} (group "${row.group}")`).join(', ')}; set group: "${group.name}"`,
        })
      rows.push(...produced.filter((row) => row.group === group.name))
    } catch (error) {
      context.log(error instanceof Error && error.stack !== undefined ? error.stack : errorText(error))
      failures.push({ group: group.name, error: errorText(error) })
    }
  }
  return { notes, logPath, rows, failures }
}
