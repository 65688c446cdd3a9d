import type { GroupContext } from '../src/group.ts'

/** A group context for tests that call a group's `run` directly: notes are collected, the log goes nowhere. */
export function testContext(): GroupContext & { readonly notes: string[] } {
  const notes: string[] = []
  return { notes, note: (text) => notes.push(text), logPath: '/dev/null', log: () => {} }
}
