// The status panel: renders the shared store's snapshot. Everything from the gateway is written as text
// (textContent), never as markup. Query parameters: ?poll=<ms> (default 5000, min 250) and ?inUse=<ms> (the
// display-only "in use" line, default 120000) — both for demos and tests with short windows.

import {
  BADGES,
  badgeOf,
  countBadges,
  DEFAULT_POLL_MS,
  formatIdle,
  formatLastUsed,
  formatTools,
  IN_USE_WINDOW_MS,
  MIN_POLL_MS,
  msToSeconds,
  parseIdleSeconds,
  positiveParam,
} from './badges.js'
import { createStateStore } from './store.js'

const params = new URLSearchParams(location.search)
const inUseWindowMs = positiveParam(params.get('inUse'), IN_USE_WINDOW_MS, 0)
const store = createStateStore({
  intervalMs: positiveParam(params.get('poll'), DEFAULT_POLL_MS, MIN_POLL_MS),
})

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/**
 * @param {string} tag
 * @param {{ className?: string, text?: string, title?: string, lang?: string }} [props]
 * @param {(Node | string)[]} [children]
 */
function el(tag, props = {}, children = []) {
  const node = document.createElement(tag)
  if (props.className) node.className = props.className
  if (props.text !== undefined) node.textContent = props.text
  if (props.title) node.title = props.title
  if (props.lang) node.lang = props.lang
  for (const child of children) node.append(child)
  return node
}

/** @param {import('./badges.js').BadgeKind} kind */
function badge(kind) {
  const info = BADGES[kind]
  const node = el('span', { className: `badge badge-${kind}`, title: info.description }, [
    el('span', { className: 'dot' }),
    el('span', { text: info.label }),
    el('span', { className: 'meaning', lang: 'en', text: info.meaning }),
  ])
  node.dataset.badge = kind
  return node
}

/**
 * @param {import('../src/status-types.ts').ServerStatus} server
 * @param {import('../src/status-types.ts').GatewayStatusSnapshot} snapshot
 */
function row(server, snapshot) {
  const kind = badgeOf(server, snapshot.at, inUseWindowMs)
  const name = el('th', { className: 'name' }, [el('span', { text: server.name })])
  name.scope = 'row'
  if (server.description) name.append(el('span', { className: 'description', text: server.description }))
  const state = el('td', {}, [badge(kind)])
  if (kind === 'failed' && server.lastError)
    state.append(el('span', { className: 'error-text', text: server.lastError }))
  const lifecycle = el('td', { text: server.lifecycle })
  if (server.pinned) lifecycle.append(el('span', { className: 'pinned', text: 'pinned' }))
  const tr = el('tr', {}, [
    name,
    state,
    lifecycle,
    el('td', { className: 'num', text: formatTools(server.tools) }),
    el('td', { text: formatLastUsed(server.lastUsedAt, snapshot.at) }),
    el('td', { className: 'num', text: String(server.connections) }),
    el('td', { text: formatIdle(server, snapshot) }),
  ])
  tr.dataset.server = server.name
  tr.dataset.badge = kind
  return tr
}

let fieldTouched = false

/** @param {import('./store.js').StoreState} state */
function render(state) {
  const pollError = byId('poll-error')
  pollError.hidden = state.error === undefined
  pollError.textContent = state.error ?? ''
  const snapshot = state.snapshot
  if (snapshot === undefined) return
  byId('rows').replaceChildren(...snapshot.servers.map((server) => row(server, snapshot)))
  byId('empty').hidden = snapshot.servers.length > 0
  const counts = countBadges(snapshot, inUseWindowMs)
  const parts = /** @type {(keyof typeof BADGES)[]} */ (Object.keys(BADGES))
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${BADGES[kind].label} (${BADGES[kind].meaning})`)
  byId('summary').textContent =
    `${snapshot.servers.length} ${snapshot.servers.length === 1 ? 'server' : 'servers'}${parts.length > 0 ? `: ${parts.join(', ')}` : ''} · ` +
    `updated ${new Date(snapshot.at).toLocaleTimeString()}`
  byId('summary').dataset.at = String(snapshot.at)
  byId('idle-current').textContent =
    `In force: ${msToSeconds(snapshot.idleDisconnectMs)} s (${snapshot.idleDisconnectMs} ms), ` +
    (snapshot.idleOverride ? 'set from this panel.' : 'from the configuration.')
  const reset = /** @type {HTMLButtonElement} */ (byId('idle-reset'))
  reset.disabled = !snapshot.idleOverride
  const input = /** @type {HTMLInputElement} */ (byId('idle-seconds'))
  if (!fieldTouched && document.activeElement !== input) input.value = msToSeconds(snapshot.idleDisconnectMs)
}

/** @param {string} message */
function showFieldError(message) {
  const input = byId('idle-seconds')
  byId('idle-error').textContent = message
  if (message === '') input.removeAttribute('aria-invalid')
  else input.setAttribute('aria-invalid', 'true')
}

/** @param {() => Promise<unknown>} action */
async function submit(action) {
  const buttons = [byId('idle-save'), byId('idle-reset')].map(
    (node) => /** @type {HTMLButtonElement} */ (node),
  )
  for (const button of buttons) button.disabled = true
  try {
    await action()
    fieldTouched = false
    showFieldError('')
  } catch (error) {
    showFieldError(`The gateway refused: ${error instanceof Error ? error.message : error}`)
  } finally {
    buttons[0].disabled = false
    render(store.get())
  }
}

byId('idle-seconds').addEventListener('input', () => {
  fieldTouched = true
  showFieldError('')
})
byId('idle-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const parsed = parseIdleSeconds(/** @type {HTMLInputElement} */ (byId('idle-seconds')).value)
  if (!parsed.ok) {
    showFieldError(parsed.error)
    byId('idle-seconds').focus()
    return
  }
  void submit(() => store.setIdleDisconnectMs(parsed.ms))
})
byId('idle-reset').addEventListener('click', () => void submit(() => store.clearIdleDisconnectMs()))

store.subscribe(render)
