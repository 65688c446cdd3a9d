/**
 * DSH's sandbox vocabulary (`packages/sandbox/sandbox/src/index.ts` `SandboxMode`, `escalation.ts` `WIDER_MODES`),
 * restated here so this package needs no DSH dependency. The tool packages' tests pin it against the exported rc.8
 * values, so a change in DSH's ladder fails a test instead of drifting silently.
 */
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access'

/** Narrowest first: DSH's ladder read-only < workspace-write < danger-full-access. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access']

/** What a call whose effective mode is the key may escalate to (DSH `WIDER_MODES`). */
export const WIDER_MODES: Readonly<Record<SandboxMode, readonly SandboxMode[]>> = {
  'read-only': ['workspace-write', 'danger-full-access'],
  'workspace-write': ['danger-full-access'],
  'danger-full-access': [],
}

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value)
}

/** True only for a known mode strictly wider than `effective` on DSH's ladder. */
export function isStrictlyWider(requested: unknown, effective: SandboxMode): boolean {
  return isSandboxMode(requested) && WIDER_MODES[effective].includes(requested)
}

/** True for a known mode equal to or narrower than `effective`: a request that asks for nothing. */
export function isNoWider(requested: unknown, effective: SandboxMode): boolean {
  return isSandboxMode(requested) && SANDBOX_MODES.indexOf(requested) <= SANDBOX_MODES.indexOf(effective)
}
