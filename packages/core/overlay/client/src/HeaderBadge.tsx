import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { ContractsPanel } from './ContractsPanel.tsx'
import type { Translate } from './dsh-client.ts'
import type { ContractsKey } from './locales.ts'
import { badgeLabel } from './model.ts'
import { getSnapshot, refresh, subscribe } from './store.ts'

/**
 * The session-header entry (`conversation.session.header.actions`): nothing at all until the overlay withheld or
 * repaired a tool, then a badge with the count that opens the *Tool contracts* panel. One click from the chat.
 */
export function HeaderBadge({ t }: { t: Translate<ContractsKey> }): ReactNode {
  const state = useSyncExternalStore(subscribe, getSnapshot)
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)

  // While open: a press outside closes it, and so does Escape (focus goes back to the badge).
  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (rootRef.current !== null && !rootRef.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      setOpen(false)
      triggerRef.current?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const view = state.status === 'loading' ? undefined : state.view
  const label = view === undefined ? undefined : badgeLabel(view.counts)
  if (view === undefined || label === undefined) return null

  const close = () => {
    setOpen(false)
    triggerRef.current?.focus()
  }
  const text = t(label.key, label.params)
  return (
    <div ref={rootRef} className="dshh-root">
      <button
        ref={triggerRef}
        type="button"
        className="dshh-trigger"
        data-dsh-harden-badge=""
        data-withheld={view.counts.withheld > 0 ? 'true' : 'false'}
        aria-expanded={open}
        aria-haspopup="dialog"
        title={t('title')}
        onClick={() => {
          if (!open) refresh()
          setOpen((current) => !current)
        }}
      >
        <span className="dshh-dot" aria-hidden="true" />
        {text}
      </button>
      {open ? (
        <div className="dshh-popover" role="dialog" aria-label={t('title')}>
          <ContractsPanel state={state} t={t} onClose={close} />
        </div>
      ) : null}
    </div>
  )
}

/** The same panel as a tab of Settings → Plugins (`settings.plugins.tab`): every tool, even when nothing was withheld. */
export function SettingsTab({ t }: { t: Translate<ContractsKey> }): ReactNode {
  const state = useSyncExternalStore(subscribe, getSnapshot)
  return (
    <div className="dshh-settings">
      <ContractsPanel state={state} t={t} />
    </div>
  )
}
