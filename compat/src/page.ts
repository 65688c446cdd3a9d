/**
 * The static page: the report's JSON embedded in one HTML file with a small script that draws the matrix (servers ×
 * routes), the totals, and the drill-down to one tool on one route. It loads nothing from anywhere; every value from
 * the report reaches the page through `textContent`, never as markup.
 */
import type { CompatReport } from './table.ts'

const STYLE = `
:root { --as-is:#2f855a; --repaired:#2b6cb0; --decoded:#6b46c1; --misread:#b7791f; --refused:#c53030; --line:#d8dee6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1a202c; background: #f7f9fb; }
header { padding: 16px 24px 8px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 20px 0 8px; } h3 { font-size: 13px; margin: 12px 0 4px; }
main { padding: 0 24px 40px; min-width: 0; }
/* Wide tables scroll inside their box, so the page itself never scrolls sideways; the first column (route, server,
   tool) stays put while the others scroll past it. */
.scroll { overflow-x: auto; max-width: 100%; }
/* Separate borders: a collapsed border stays behind when its sticky cell moves, and shows through at the edge. */
.scroll table { border-collapse: separate; border-spacing: 0; border-top: 1px solid var(--line); border-left: 1px solid var(--line); }
.scroll th, .scroll td { border-width: 0 1px 1px 0; }
.scroll tr > :first-child { position: sticky; left: 0; z-index: 1; background: #fff; }
.scroll tr > th:first-child { background: #eef2f6; z-index: 2; }
.muted { color: #5a6472; font-size: 12px; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f6; font-weight: 600; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.legend span, .badge { display: inline-block; padding: 1px 6px; border-radius: 3px; color: #fff; font-size: 12px; margin-right: 4px; }
.as-is { background: var(--as-is); } .repaired { background: var(--repaired); } .decoded { background: var(--decoded); }
.misread { background: var(--misread); } .refused { background: var(--refused); }
.bar { display: flex; height: 10px; width: 100%; border-radius: 2px; overflow: hidden; background: #e2e8f0; margin-top: 2px; }
.bar > div { height: 100%; }
.cell { cursor: pointer; min-width: 118px; } .cell:hover { background: #f0f5ff; }
.cell .nums { font-size: 12px; font-variant-numeric: tabular-nums; }
tr.server td:first-child { font-weight: 600; white-space: nowrap; } tr.server .muted { font-weight: 400; font-size: 11px; }
#tools { margin-top: 12px; } #tools td.tool { font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; }
.pair { white-space: nowrap; cursor: pointer; } .pair:hover { outline: 2px solid #90cdf4; }
.arrow { color: #718096; margin: 0 2px; }
#detail { margin-top: 16px; background: #fff; border: 1px solid var(--line); padding: 12px 16px; display: none; }
#detail pre { background: #f4f6f8; padding: 8px; overflow: auto; max-height: 360px; font-size: 12px; }
#detail .cols { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
#detail ul { margin: 4px 0 8px 18px; padding: 0; } #detail li { font-size: 12px; font-family: ui-monospace, monospace; }
.warn { color: var(--refused); font-weight: 600; }
.blind { margin-left: 6px; padding: 0 4px; border: 1px solid #a0aec0; border-radius: 3px; color: #4a5568; font-size: 11px; font-family: system-ui, sans-serif; }
`

const SCRIPT = `
const report = JSON.parse(document.getElementById('compat-data').textContent);
const AFTER = ['as-is', 'repaired', 'decoded', 'refused'];
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value; else if (key === 'onclick') node.onclick = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
};
const scroll = (table) => el('div', { class: 'scroll' }, table);
const badge = (verdict) => el('span', { class: 'badge ' + verdict }, verdict);
const bar = (counts, total) => el('div', { class: 'bar' }, ...AFTER.filter((v) => counts[v] > 0).map((v) =>
  el('div', { class: v, style: 'width:' + (100 * counts[v] / total) + '%', title: v + ': ' + counts[v] })));

function renderTotals() {
  const table = el('table', {}, el('tr', {},
    ...['route', 'tools', 'before: usable', 'before: as-is', 'before: refused', '(lost at intake)', 'before: usable as pi-ai sends it',
      'after: usable', 'as-is', 'repaired', 'decoded', 'refused', 'blind (usable, schema names nothing)', 'usable after: judge refused / changed', 'meaning kept (not blind)', 'meaning lost', 'off wire'].map((h) => el('th', {}, h))));
  for (const profile of report.profiles) {
    const t = report.totals[profile];
    const m = t.meaning;
    table.append(el('tr', {}, el('td', {}, profile), ...[t.tools, t.before.usable, t.before['as-is'], t.before.refused, t.before.lostAtIntake, t.before.usableViaPiAi ?? '–',
      t.after.usable, t.after['as-is'], t.after.repaired, t.after.decoded, t.after.refused, t.after.blind,
      el('div', {}, ...(Object.keys(t.judges).length === 0 ? ['–'] : Object.entries(t.judges).map(([judge, c]) =>
        el('div', { style: 'white-space:nowrap' }, judge + ' ' + c.refusedAfter + ' / ' + c.changedAfter)))),
      m.keptAll + '/' + m.measured, m.lost, m.offWire].map((n) => el('td', { class: 'num' }, n))));
  }
  document.getElementById('totals').append(scroll(table));
}

function countsFor(server, profile) {
  const after = { 'as-is': 0, repaired: 0, decoded: 0, refused: 0 };
  let beforeUsable = 0;
  for (const tool of server.tools) {
    const cell = tool.cells[profile];
    after[cell.after.verdict]++;
    if (cell.before.verdict !== 'refused') beforeUsable++;
  }
  return { after, beforeUsable };
}

function renderMatrix() {
  const table = el('table', {}, el('tr', {}, el('th', {}, 'server (package@version)'), el('th', {}, 'tools'),
    ...report.profiles.map((p) => el('th', {}, p, el('div', { class: 'muted' }, 'usable: before → after')))));
  for (const server of report.servers) {
    const row = el('tr', { class: 'server' },
      el('td', {}, server.id, el('div', { class: 'muted' }, server.packageName + '@' + server.packageVersion)),
      el('td', { class: 'num' }, server.failure ? 'failed' : server.tools.length));
    for (const profile of report.profiles) {
      const total = server.tools.length || 1;
      const { after, beforeUsable } = countsFor(server, profile);
      const usable = server.tools.length - after.refused;
      row.append(el('td', { class: 'cell', title: 'before → after usable; click for the tools', onclick: () => renderTools(server, profile) },
        el('div', { class: 'nums' }, beforeUsable, el('span', { class: 'arrow' }, ' → '), el('b', {}, usable), ' of ' + server.tools.length),
        bar(after, total)));
    }
    table.append(row);
  }
  document.getElementById('matrix').append(scroll(table));
}

function renderTools(server, focus) {
  const box = document.getElementById('tools');
  box.replaceChildren(el('h2', {}, server.id + ': every tool on every route (before → after; click one)'));
  if (server.sdkRejection) box.append(el('p', { class: 'warn' }, 'Stock intake loses this whole server: ' + server.sdkRejection));
  if (server.failure) box.append(el('p', { class: 'warn' }, 'Not listed: ' + server.failure));
  const table = el('table', {}, el('tr', {}, el('th', {}, 'tool'), ...report.profiles.map((p) => el('th', {}, p))));
  for (const tool of server.tools) {
    const row = el('tr', {}, el('td', { class: 'tool' }, tool.name,
      ...(tool.blind ? [el('span', { class: 'blind', title: 'the declared schema names no argument: usable, counted apart from meaning kept' }, 'blind')] : [])));
    for (const profile of report.profiles) {
      const cell = tool.cells[profile];
      row.append(el('td', {}, el('span', { class: 'pair', onclick: () => renderDetail(server, tool, profile) },
        badge(cell.before.verdict), el('span', { class: 'arrow' }, '→'), badge(cell.after.verdict))));
    }
    table.append(row);
  }
  box.append(scroll(table));
  document.getElementById('detail').style.display = 'none';
  box.scrollIntoView();
}

const list = (items) => items.length === 0 ? el('p', { class: 'muted' }, 'none') : el('ul', {}, ...items.map((i) => el('li', {}, i)));
const json = (value) => el('pre', {}, JSON.stringify(value, null, 2));

function renderDetail(server, tool, profile) {
  const cell = tool.cells[profile];
  const box = document.getElementById('detail');
  const judges = (results) => results.length === 0 ? el('p', { class: 'muted' }, 'no judge for this route') :
    el('ul', {}, ...results.map((j) => el('li', {}, j.judge + ': ' + j.outcome + (j.detail.length ? ' — ' + j.detail.join('; ') : ''))));
  const m = cell.after.meaning;
  box.replaceChildren(
    el('h2', {}, server.id + ' / ' + tool.name + ' on ' + profile),
    el('p', {}, 'before (stock): ', badge(cell.before.verdict), cell.before.lostAtIntake ? ' (lost at intake; the route alone: ' + cell.before.route + ')' : '',
      el('span', { class: 'arrow' }, '  →  '), 'after (dsh-harden): ', badge(cell.after.verdict)),
    el('h3', {}, 'Why (stock)'), list(cell.before.reasons),
    ...(cell.before.viaPiAi ? [el('p', {}, 'stock, as pi-ai sends it: ', badge(cell.before.viaPiAi.verdict)), list(cell.before.viaPiAi.reasons)] : []),
    el('h3', {}, 'Why (dsh-harden)'), list(cell.after.reasons),
    el('h3', {}, 'Changes on the wire'), list(cell.after.changes),
    el('h3', {}, 'Decoder (what is read back before the tool runs)'), list(cell.after.decoder),
    el('h3', {}, "Outside judges (the providers' own code; reported-error probes)"),
    el('div', { class: 'cols' }, el('div', {}, el('b', {}, 'on the declared schema'), judges(cell.before.judges)),
      el('div', {}, el('b', {}, 'on the wire schema'), judges(cell.after.judges))),
    el('h3', {}, 'Meaning kept'),
    ...(tool.blind ? [el('p', { class: 'warn' }, 'blind: the declared schema names no argument, so the model learns nothing about what to send; not counted as meaning kept')] : []),
    m ? el('p', {}, m.kept + ' of ' + m.samples + ' sample arguments read back equal' + (m.offWire ? '; ' + m.offWire + ' answers the wire would not admit' : '')) : el('p', { class: 'muted' }, 'not measured'),
    ...(m && m.lost ? [el('p', { class: 'warn' }, 'lost:'), json(m.lost)] : []),
    ...(m && m.offWireExample ? [el('p', { class: 'warn' }, 'off the wire:'), json(m.offWireExample)] : []),
    el('div', { class: 'cols' }, el('div', {}, el('h3', {}, 'Declared inputSchema (as listed)'), json(report.schemas[tool.declared])),
      el('div', {}, el('h3', {}, 'Wire schema'), cell.after.wire ? json(report.schemas[cell.after.wire]) : el('p', { class: 'muted' }, 'none: refused'))),
  );
  box.style.display = 'block';
  box.scrollIntoView();
}

renderTotals();
renderMatrix();
`

/** `JSON.stringify` made safe inside `<script>`: no `</script>`, no HTML comment openers. */
function embed(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029')
}

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

export function renderPage(report: CompatReport): string {
  const servers = report.servers.length
  const tools = report.servers.reduce((sum, server) => sum + server.tools.length, 0)
  const judges = report.judges
    .map(
      (judge) =>
        `${judge.id} (${judge.runs > 0 ? `${judge.profiles.join(', ')}; ran on ${judge.runs} schemas` : 'did not run: no column of this run stands for its routes'}): ${judge.source}`,
    )
    .join(' · ')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>dsh-harden compatibility table</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>dsh-harden compatibility table: ${servers} MCP servers, ${tools} tools, ${report.profiles.length} routes</h1>
<div class="muted">Generated ${escapeHtml(report.generatedAt)} from the live rules of @dsh-harden/tools. Before = stock DSH
(the MCP SDK's page check at intake, then the declared schema sent unchanged); after = dsh-harden's MCP boundary and
projection. Outside judges: ${escapeHtml(judges)}.</div>
<div class="legend" style="margin-top:6px"><span class="as-is">as-is</span><span class="repaired">repaired</span><span class="decoded">decoded</span><span class="misread">misread</span><span class="refused">refused</span>
<span class="muted" style="color:#5a6472">blind: the declared schema names no argument (usable, counted apart from meaning kept) · as-is: sent as declared · repaired: sent changed, no decoder needed · decoded: projected with a decoder · misread (stock only): taken, but arguments come back wrong · refused: the route fails every request that lists it</span></div>
</header>
<main>
<h2>Totals per route (tools usable = as-is + repaired + decoded)</h2>
<div id="totals"></div>
<h2>Servers × routes (click a cell for its tools)</h2>
<div id="matrix"></div>
<div id="tools"></div>
<div id="detail"></div>
</main>
<script type="application/json" id="compat-data">${embed(report)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`
}
