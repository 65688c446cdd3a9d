/**
 * The panel's stylesheet, injected as one tagged `<style>` while the plugin is loaded (DSH's client bundles do the
 * same for their CSS modules). Every colour is a DSH theme token (`--dsw-*`, defined by
 * `@deepseek-ai/dsh-client-ui-theme` for the light and the dark theme), so the panel follows the theme switch; class
 * names carry a prefix of ours, so nothing collides with the shell's hashed classes.
 */
export const STYLE_ID = 'dsh-harden-tool-contracts'

export const CSS = `
.dshh-root { position: relative; }
.dshh-trigger {
  display: inline-flex; align-items: center; gap: 6px; min-height: 28px; padding: 3px 8px;
  border: 1px solid var(--dsw-alias-state-warn-secondary, var(--dsw-alias-border-l2)); border-radius: 14px;
  background: var(--dsw-alias-state-warn-tertiary, transparent); color: var(--dsw-alias-state-warn-label, var(--dsw-alias-label-primary));
  font-size: 12px; line-height: 18px; cursor: pointer; white-space: nowrap;
}
.dshh-trigger[data-withheld="true"] {
  border-color: var(--dsw-alias-state-error-secondary, var(--dsw-alias-border-l2));
  background: transparent; color: var(--dsw-alias-state-error-primary);
}
.dshh-trigger:hover, .dshh-trigger:focus-visible { background: var(--dsw-alias-interactive-bg-hover); }
.dshh-dot { width: 7px; height: 7px; border-radius: 50%; flex: none; background: currentColor; }
.dshh-popover {
  position: absolute; top: calc(100% + 6px); left: 0; z-index: 100; box-sizing: border-box;
  width: 560px; max-width: min(560px, calc(100vw - 32px)); max-height: min(560px, calc(100vh - 120px));
  overflow: auto; padding: 12px; border: 1px solid var(--dsw-alias-border-l2); border-radius: 12px;
  background: var(--dsw-specific-menu, var(--dsw-alias-bg-layer-2)); box-shadow: var(--dsw-shadow-lv3);
  --dsh-scrollbar-thumb: var(--dsw-alias-scrollbar-bg-l2); --dsh-scrollbar-thumb-hover: var(--dsw-alias-scrollbar-hover-l2);
}
.dshh-panel { display: flex; flex-direction: column; gap: 12px; color: var(--dsw-alias-label-primary); font-size: 13px; line-height: 19px; }
.dshh-head { display: flex; align-items: center; gap: 10px; }
.dshh-title { margin: 0; font-size: 14px; font-weight: 600; }
.dshh-counts { display: flex; flex-wrap: wrap; gap: 6px; }
.dshh-close { margin-left: auto; border: 0; background: transparent; color: var(--dsw-alias-label-tertiary); cursor: pointer; font-size: 12px; padding: 2px 6px; border-radius: 6px; }
.dshh-close:hover { color: var(--dsw-alias-label-primary); background: var(--dsw-alias-interactive-bg-hover); }
.dshh-tag {
  --dshh-tone: var(--dsw-alias-label-secondary);
  display: inline-flex; align-items: center; gap: 4px; padding: 0 7px; border-radius: 6px;
  font-size: 11px; line-height: 18px; font-weight: 600; white-space: nowrap;
  color: var(--dshh-tone); background: color-mix(in srgb, var(--dshh-tone) 14%, transparent);
}
.dshh-tag[data-verdict="withheld"] { --dshh-tone: var(--dsw-alias-state-error-primary); }
.dshh-tag[data-verdict="repaired"] { --dshh-tone: var(--dsw-alias-state-warn-primary); }
.dshh-tag[data-verdict="fallback-validator"] { --dshh-tone: var(--dsw-alias-brand-primary); }
.dshh-tag[data-verdict="accepted"] { --dshh-tone: var(--dsw-alias-state-success-primary); }
.dshh-group { display: flex; flex-direction: column; gap: 6px; margin: 0; padding: 0; list-style: none; }
.dshh-row { display: flex; flex-direction: column; gap: 4px; padding: 8px 10px; border: 1px solid var(--dsw-alias-border-l1, var(--dsw-alias-border-l2)); border-radius: 8px; background: var(--dsw-alias-bg-layer-1, transparent); }
.dshh-row[data-verdict="accepted"] { padding: 5px 10px; }
.dshh-row[data-verdict="withheld"] { border-color: color-mix(in srgb, var(--dsw-alias-state-error-primary) 35%, transparent); }
.dshh-row[data-verdict="repaired"] { border-color: color-mix(in srgb, var(--dsw-alias-state-warn-primary) 35%, transparent); }
.dshh-fold > summary { cursor: pointer; color: var(--dsw-alias-label-secondary); font-size: 12px; font-weight: 600; padding: 2px 0; }
.dshh-fold > summary:hover { color: var(--dsw-alias-label-primary); }
.dshh-fold[open] > summary { margin-bottom: 6px; }
.dshh-row-head { display: flex; align-items: baseline; flex-wrap: wrap; gap: 8px; }
.dshh-tool { font-family: var(--dsw-font-mono, ui-monospace, monospace); font-weight: 600; overflow-wrap: anywhere; }
.dshh-source { color: var(--dsw-alias-label-tertiary); font-size: 12px; overflow-wrap: anywhere; }
.dshh-explain { margin: 0; color: var(--dsw-alias-label-secondary); font-size: 12px; }
.dshh-findings { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 4px; }
.dshh-finding { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 2px 8px; font-size: 12px; }
.dshh-pointer { font-family: var(--dsw-font-mono, ui-monospace, monospace); padding: 0 5px; border-radius: 4px; background: var(--dsw-alias-markdown-inline-code, var(--dsw-alias-bg-layer-3)); color: var(--dsw-alias-label-primary); overflow-wrap: anywhere; align-self: start; }
.dshh-message { color: var(--dsw-alias-label-primary); overflow-wrap: anywhere; }
.dshh-hint { grid-column: 2; color: var(--dsw-alias-label-secondary); overflow-wrap: anywhere; }
.dshh-hint b { font-weight: 600; color: var(--dsw-alias-label-primary); }
.dshh-now { display: flex; flex-direction: column; gap: 2px; font-size: 12px; color: var(--dsw-alias-label-secondary); }
.dshh-now b, .dshh-note b { font-weight: 600; color: var(--dsw-alias-label-primary); }
.dshh-actions { margin: 0; padding-left: 16px; display: flex; flex-direction: column; gap: 2px; }
.dshh-command { font-family: var(--dsw-font-mono, ui-monospace, monospace); font-size: 12px; padding: 0 5px; border-radius: 4px; background: var(--dsw-alias-markdown-inline-code, var(--dsw-alias-bg-layer-3)); color: var(--dsw-alias-label-primary); overflow-wrap: anywhere; user-select: all; }
pre.dshh-command { margin: 4px 0 0; padding: 4px 8px; white-space: pre; overflow-x: auto; }
.dshh-note { margin: 0; color: var(--dsw-alias-label-tertiary); font-size: 12px; }
.dshh-status { margin: 0; color: var(--dsw-alias-label-secondary); }
.dshh-status[role="alert"] { color: var(--dsw-alias-state-error-primary); }
.dshh-settings { padding: 4px 0; }
`
