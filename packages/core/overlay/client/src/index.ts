/**
 * The overlay's browser half, loaded by DSH's web shell because `@dsh-harden/overlay` declares `dsh.client` (rc.8
 * `@deepseek-ai/dsh-client-modules`: the host scans enabled loader rows for it and serves this bundle under
 * `/plugins/@dsh-harden/overlay/client.js`). It adds a badge to the session header when the overlay withheld or
 * repaired a tool, and a *Tool contracts* tab to Settings → Plugins; both read the host half's read-only route.
 */
import type { ClientContext } from './dsh-client.ts'
import { HeaderBadge, SettingsTab } from './HeaderBadge.tsx'
import { type ContractsKey, en, NS, zh } from './locales.ts'
import { CSS, STYLE_ID } from './styles.ts'

/** The client services this plugin needs (cordis injects; the rows that provide them are in `dsh.client.inject`). */
export const inject = ['slots', 'locale']

export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'dsh-harden: dictionaries')
  ctx.effect(() => {
    const style = document.createElement('style')
    style.dataset.plugin = '@dsh-harden/overlay'
    style.id = STYLE_ID
    style.textContent = CSS
    document.head.appendChild(style)
    return () => style.remove()
  }, 'dsh-harden: panel styles')
  const t = ctx.locale.bind<ContractsKey>(NS)
  ctx.slots.inject('conversation.session.header.actions', () =>
    ctx.slots.register(
      { name: 'conversation.session.header.actions', id: 'dsh-harden-tool-contracts', order: 30, locale: NS },
      HeaderBadge,
    ),
  )
  ctx.slots.inject('settings.plugins.tab', () =>
    ctx.slots.register(
      {
        name: 'settings.plugins.tab',
        id: 'dsh-harden-tool-contracts',
        order: 20,
        label: () => t('tab'),
        locale: NS,
      },
      SettingsTab,
    ),
  )
}
