import { readdirSync, readFileSync } from 'node:fs'

/**
 * Live (non-zombie) direct children of this process, read from Linux `/proc`: "servers started" counts real
 * processes, not what a plugin says it did. Elsewhere `/proc` is absent and this returns undefined.
 */
export function childPids(): Set<number> | undefined {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  const pids = new Set<number>()
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(ppid) === process.pid && state !== 'Z') pids.add(Number(entry))
    } catch {
      // exited while being read
    }
  }
  return pids
}

/** Children that exist now and did not before `before` was taken. */
export function newChildren(before: Set<number> | undefined): number[] {
  const now = childPids()
  if (now === undefined || before === undefined) return []
  return [...now].filter((pid) => !before.has(pid))
}
