import type { GroupContext } from './group.ts'
import type { Row } from './row.ts'
import type { CaseRow } from './run-case.ts'

/**
 * TEMPORARY while the row files are converted one by one (H7): wraps an old `CaseRow` list as rows. A wrapped row is
 * a `fix` whose stock leg counts as failing and whose hardened leg counts as working exactly when the old code said
 * `fixed`: it proves nothing new and goes away with the conversion.
 */
export function legacyRun(
  name: string,
  rows: () => Promise<CaseRow[]>,
): (context: GroupContext) => Promise<Row[]> {
  return async () =>
    (await rows()).map((row) => ({
      id: row.id,
      group: name,
      kind: 'fix',
      proves: '(not converted yet)',
      source: row.source,
      stock: { outcome: row.stock.outcome, works: !row.fixed, detail: row.stock.detail },
      hardened: { outcome: row.hardened.outcome, works: row.fixed, detail: row.hardened.detail },
    }))
}
