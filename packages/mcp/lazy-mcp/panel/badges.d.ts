// Types of badges.js (browser JavaScript; the snapshot shape is GatewayStatusSnapshot of src/status-types.ts).
import type { GatewayStatusSnapshot, ServerStatus } from '../src/status-types.ts'

export type BadgeKind = 'failed' | 'connecting' | 'in-use' | 'connected' | 'dormant'

export interface BadgeInfo {
  /** The label the UI shows (Chinese, as in DSH). */
  readonly label: string
  /** The English meaning: the reference for localisation. */
  readonly meaning: string
  readonly description: string
  /** The DSH theme token whose colour the badge follows. */
  readonly token: string
}

export type ServerStatusLike = Pick<
  ServerStatus,
  'state' | 'lastError' | 'lastUsedAt' | 'pinned' | 'idleDisconnectMs' | 'idleDisconnectMsExplicit'
>
export type SnapshotLike = Pick<GatewayStatusSnapshot, 'at' | 'idleOverride'> & {
  readonly servers: readonly ServerStatusLike[]
}

export declare const IN_USE_WINDOW_MS: number
export declare const MIN_IDLE_MS: number
export declare const MAX_IDLE_MS: number
export declare const DEFAULT_POLL_MS: number
export declare const MIN_POLL_MS: number
export declare const BADGES: Readonly<Record<BadgeKind, BadgeInfo>>
export declare function badgeOf(server: ServerStatusLike, now: number, inUseWindowMs?: number): BadgeKind
export declare function countBadges(snapshot: SnapshotLike, inUseWindowMs?: number): Record<BadgeKind, number>
export declare function formatTools(tools: ServerStatus['tools']): string
export declare function msToSeconds(ms: number): string
export declare function formatDuration(ms: number): string
export declare function formatLastUsed(lastUsedAt: number | undefined, now: number): string
export declare function formatIdle(server: ServerStatusLike, snapshot: SnapshotLike): string
export declare function parseIdleSeconds(
  text: string,
): { ok: true; ms: number } | { ok: false; error: string }
export declare function positiveParam(value: string | null, fallback: number, min: number): number
