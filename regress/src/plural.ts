/** `count(1, 'tool')` → "1 tool", `count(2, 'tool')` → "2 tools"; irregular plurals are passed in. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`
}
