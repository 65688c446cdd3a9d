import type { ReactNode } from 'react'
import type { ContractRow, ContractsView } from '../../src/web/wire.ts'
import type { Translate } from './dsh-client.ts'
import type { ContractsKey } from './locales.ts'
import { groupRows, pointerText } from './model.ts'
import type { ContractsState } from './store.ts'

type T = Translate<ContractsKey>

function Explanation({ row, t }: { row: ContractRow; t: T }): ReactNode {
  switch (row.verdict) {
    case 'withheld':
      return <p className="dshh-explain">{t('explain.withheld')}</p>
    case 'repaired':
      return <p className="dshh-explain">{t('explain.repaired')}</p>
    case 'fallback-validator':
      return (
        <p className="dshh-explain">
          {t('explain.fallback', {
            construct: row.validator?.construct ?? '',
            fallback: row.validator?.fallback ?? '',
          })}
        </p>
      )
    case 'accepted':
      return null
  }
}

/** One tool: its name, who registered it, the verdict, and for a withheld or repaired tool each pointer, reason, fix. */
function Row({ row, t }: { row: ContractRow; t: T }): ReactNode {
  return (
    <li
      className="dshh-row"
      data-dsh-harden-tool={row.tool}
      data-verdict={row.verdict}
      data-source={row.source ?? ''}
    >
      <div className="dshh-row-head">
        <span className="dshh-tool">{row.tool}</span>
        <span className="dshh-tag" data-verdict={row.verdict}>
          {t(`verdict.${row.verdict}`)}
        </span>
        <span className="dshh-source">
          {row.source === null ? t('source.unknown') : t('source', { source: row.source })}
          {row.early ? ` · ${t('early')}` : ''}
        </span>
      </div>
      <Explanation row={row} t={t} />
      {row.findings.length > 0 ? (
        <ul className="dshh-findings">
          {row.findings.map((finding, index) => (
            <li
              className="dshh-finding"
              key={`${finding.pointer}\u0000${index}`}
              data-pointer={finding.pointer}
            >
              <code className="dshh-pointer">{pointerText(finding.pointer, t('root'))}</code>
              <span className="dshh-message">{finding.message}</span>
              <span className="dshh-hint">
                <b>{t('fix')}</b> {finding.hint}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {row.moreFindings > 0 ? (
        <p className="dshh-note">{t('more.findings', { count: row.moreFindings })}</p>
      ) : null}
    </li>
  )
}

function Rows({ view, t, foldAccepted }: { view: ContractsView; t: T; foldAccepted: boolean }): ReactNode {
  const groups = groupRows(view.rows)
  if (groups.length === 0) return <p className="dshh-status">{t('empty')}</p>
  return (
    <>
      {groups.map((group) => {
        const list = (
          <ul className="dshh-group" data-group={group.verdict} aria-label={t(`verdict.${group.verdict}`)}>
            {group.rows.map((row) => (
              <Row key={`${row.source ?? ''}\u0000${row.tool}`} row={row} t={t} />
            ))}
          </ul>
        )
        // Accepted tools need no action: folded when something else wants the reader's attention.
        if (group.verdict !== 'accepted' || !foldAccepted)
          return <section key={group.verdict}>{list}</section>
        return (
          <details key={group.verdict} className="dshh-fold">
            <summary>{t('accepted.fold', { count: group.rows.length })}</summary>
            {list}
          </details>
        )
      })}
      {view.omitted > 0 ? <p className="dshh-note">{t('more.rows', { count: view.omitted })}</p> : null}
    </>
  )
}

/**
 * The *Tool contracts* panel: every tool the overlay judged, withheld first. Everything from the host is text
 * (React escapes it); nothing is rendered as markup.
 */
export function ContractsPanel({
  state,
  t,
  onClose,
}: {
  state: ContractsState
  t: T
  onClose?: (() => void) | undefined
}): ReactNode {
  const view = state.status === 'loading' ? undefined : state.view
  return (
    <div className="dshh-panel" data-dsh-harden-panel="">
      <div className="dshh-head">
        <h3 className="dshh-title">{t('title')}</h3>
        <div className="dshh-counts">
          {view === undefined
            ? null
            : (['withheld', 'repaired', 'fallback-validator', 'accepted'] as const)
                .filter((kind) => view.counts[kind] > 0)
                .map((kind) => (
                  <span key={kind} className="dshh-tag" data-verdict={kind}>
                    {t(`verdict.${kind}`)} {view.counts[kind]}
                  </span>
                ))}
        </div>
        {onClose === undefined ? null : (
          <button type="button" className="dshh-close" onClick={onClose}>
            {t('close')}
          </button>
        )}
      </div>
      {state.status === 'loading' ? <p className="dshh-status">{t('loading')}</p> : null}
      {state.status === 'error' ? (
        <p className="dshh-status" role="alert">
          {t('error', { reason: state.reason })}
        </p>
      ) : null}
      {view === undefined ? null : (
        <Rows view={view} t={t} foldAccepted={view.rows.some((row) => row.verdict !== 'accepted')} />
      )}
      {view !== undefined && view.counts.withheld + view.counts.repaired > 0 ? (
        <p className="dshh-note">{t('lint')}</p>
      ) : null}
    </div>
  )
}
