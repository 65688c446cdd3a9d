import type { ReactNode } from 'react'
import type { ContractFinding, ContractRow, ContractsView } from '../../src/web/wire.ts'
import type { Translate } from './dsh-client.ts'
import type { ContractsKey } from './locales.ts'
import { findingKeys, groupRows, pointerText, removeCommand } from './model.ts'
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
          {row.validator === null
            ? null
            : t('explain.fallback', {
                construct: t(`construct.${row.validator.construct}`),
                fallback: t(`fallback.${row.validator.fallback}`),
              })}
          {row.validator?.pointer == null ? null : (
            <>
              {' '}
              <code className="dshh-pointer">{row.validator.pointer}</code>
            </>
          )}
        </p>
      )
    case 'accepted':
      return null
  }
}

/** Where, what and how to fix, in the user's language: the host sent only the pointer and the rule. */
function Finding({ finding, t }: { finding: ContractFinding; t: T }): ReactNode {
  const keys = findingKeys(finding.rule)
  return (
    <li className="dshh-finding" data-pointer={finding.pointer} data-rule={finding.rule}>
      <code className="dshh-pointer">{pointerText(finding.pointer, t('root'))}</code>
      <span className="dshh-message">{keys === undefined ? finding.rule : t(keys.message)}</span>
      {keys === undefined ? null : (
        <span className="dshh-hint">
          <b>{t('fix')}</b> {t(keys.fix)}
        </span>
      )}
    </li>
  )
}

/** For the user of a withheld tool: repair it (when that has one meaning), remove the plugin, or report it. */
function WhatNow({ row, t }: { row: ContractRow; t: T }): ReactNode {
  return (
    <div className="dshh-now" data-dsh-harden-now="">
      <b>{t('now.title')}</b>
      <ul className="dshh-actions">
        {row.repairable ? (
          <li data-action="repair">
            {t('now.repair')}
            <pre className="dshh-command">{'- id: dsh-harden\n  config:\n    mode: repair'}</pre>
          </li>
        ) : null}
        {row.package === null ? (
          <li data-action="remove">{t('now.remove.unknown')}</li>
        ) : (
          <li data-action="remove">
            {t('now.remove')} <code className="dshh-command">{removeCommand(row.package)}</code>
          </li>
        )}
        <li data-action="report">
          {row.package === null ? t('now.report.unknown') : t('now.report', { package: row.package })}
        </li>
      </ul>
    </div>
  )
}

function sourceText(row: ContractRow, t: T): string {
  if (row.source === null) return t('source.unknown')
  if (row.package === null || row.package === row.source)
    return t('source', { source: row.package ?? row.source })
  return t('source.package', { package: row.package, source: row.source })
}

/** One tool: its name, where it came from, the verdict, each pointer with its reason and fix, and what to do now. */
function Row({ row, t }: { row: ContractRow; t: T }): ReactNode {
  return (
    <li
      className="dshh-row"
      data-dsh-harden-tool={row.tool}
      data-verdict={row.verdict}
      data-source={row.source ?? ''}
      data-package={row.package ?? ''}
    >
      <div className="dshh-row-head">
        <span className="dshh-tool">{row.tool}</span>
        <span className="dshh-tag" data-verdict={row.verdict}>
          {t(`verdict.${row.verdict}`)}
        </span>
        <span className="dshh-source">
          {sourceText(row, t)}
          {row.early ? ` · ${t('early')}` : ''}
        </span>
      </div>
      <Explanation row={row} t={t} />
      {row.findings.length > 0 ? (
        <ul className="dshh-findings">
          {row.findings.map((finding, index) => (
            <Finding key={`${finding.pointer}\u0000${index}`} finding={finding} t={t} />
          ))}
        </ul>
      ) : null}
      {row.moreFindings > 0 ? (
        <p className="dshh-note">{t('more.findings', { count: row.moreFindings })}</p>
      ) : null}
      {row.verdict === 'withheld' ? <WhatNow row={row} t={t} /> : null}
    </li>
  )
}

/** For the plugin's author: the command that gives the same verdicts before publishing, or how to get one. */
function AuthorLint({ view, t }: { view: ContractsView; t: T }): ReactNode {
  return (
    <div className="dshh-note" data-dsh-harden-lint="">
      <b>{t('author.title')}</b>{' '}
      {view.lintCommand === null ? (
        t('author.lint.none')
      ) : (
        <>
          {t('author.lint')} <code className="dshh-command">{view.lintCommand}</code>
        </>
      )}
    </div>
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
          {t('error', { reason: t(state.problem.key, state.problem.params) })}
        </p>
      ) : null}
      {view === undefined ? null : (
        <Rows view={view} t={t} foldAccepted={view.rows.some((row) => row.verdict !== 'accepted')} />
      )}
      {view !== undefined &&
      view.counts.withheld + view.counts.repaired + view.counts['fallback-validator'] > 0 ? (
        <AuthorLint view={view} t={t} />
      ) : null}
    </div>
  )
}
