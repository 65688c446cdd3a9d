import { randomBytes } from 'node:crypto'
import type { SandboxMode } from './modes.ts'

/**
 * What a denial token is bound to. Every field must match exactly for a retry to redeem it: the same session, the
 * same tool, the same normalized command (or canonical target path), the same working directory, the same effective
 * mode the denied call ran under, and the same values of every other argument that changes what runs or is written.
 */
export interface DenialBinding {
  readonly session: string
  readonly tool: string
  /** The normalized command (bash, pwsh) or the canonical (realpath) target path (write, edit). */
  readonly target: string
  readonly workdir: string
  readonly mode: SandboxMode
  /**
   * A SHA-256 of every other argument that changes the effect (bash: `run_in_background`, `timeoutMs`, …; write: the
   * content; edit: `old_string`, `new_string`, `replace_all`), so a token cannot carry a different effect.
   */
  readonly effect: string
}

export interface DenialTokenOptions {
  /** How long a token stays redeemable. Default 120 000 ms. */
  readonly ttlMs?: number | undefined
  /** Most live tokens kept; the oldest is forgotten first. Default 256. */
  readonly maxTokens?: number | undefined
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined
}

export type RedeemFailure = 'unknown' | 'used' | 'expired' | 'mismatch'

export type RedeemResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: RedeemFailure; readonly message: string }

export interface IssuedToken {
  readonly token: string
  readonly expiresAt: number
  readonly ttlMs: number
}

interface Entry {
  readonly binding: DenialBinding
  readonly expiresAt: number
  used: boolean
}

export const DEFAULT_TOKEN_TTL_MS = 120_000
const DEFAULT_MAX_TOKENS = 256
const TOKEN_PREFIX = 'esc_'

const BOUND_FIELDS = ['session', 'tool', 'target', 'workdir', 'mode', 'effect'] as const

/** What a retry changed from the denied call, for the mismatch message. */
const FIELD_TEXT: Record<(typeof BOUND_FIELDS)[number], string> = {
  session: 'another session',
  tool: 'another tool',
  target: 'another command or path',
  workdir: 'another workdir',
  mode: 'another mode',
  effect: 'other arguments (content, timeout, background, …)',
}

/** The first bound field where `b` differs from `a`, or undefined when the bindings are the same. */
function differingField(a: DenialBinding, b: DenialBinding): (typeof BOUND_FIELDS)[number] | undefined {
  return BOUND_FIELDS.find((field) => a[field] !== b[field])
}

const FAILURE_TEXT: Record<RedeemFailure, string> = {
  unknown: 'no sandbox denial issued this escalation token',
  used: 'this escalation token was already used; a token admits one retry',
  expired: 'this escalation token has expired',
  mismatch: 'this escalation token belongs to a different call; repeat the denied call unchanged',
}

/**
 * One-shot escalation tokens, issued by a real sandbox denial and redeemable once, by the exact retry of the denied
 * call, within a short lifetime. In memory and per plugin instance: a restart forgets every token, which only ever
 * takes escalation away.
 */
export class DenialTokenStore {
  private readonly entries = new Map<string, Entry>()
  private readonly ttlMs: number
  private readonly maxTokens: number
  private readonly now: () => number

  constructor(options: DenialTokenOptions = {}) {
    const ttlMs = options.ttlMs ?? DEFAULT_TOKEN_TTL_MS
    if (!Number.isFinite(ttlMs) || ttlMs <= 0)
      throw new TypeError(`denial token ttlMs must be a positive number of milliseconds, got ${ttlMs}`)
    const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS
    if (!Number.isInteger(maxTokens) || maxTokens < 1)
      throw new TypeError(`denial token maxTokens must be a positive integer, got ${maxTokens}`)
    this.ttlMs = ttlMs
    this.maxTokens = maxTokens
    this.now = options.now ?? Date.now
  }

  /** A fresh unguessable token (128 random bits) for the call the sandbox just denied. */
  issue(binding: DenialBinding): IssuedToken {
    this.purge()
    while (this.entries.size >= this.maxTokens) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
    const token = TOKEN_PREFIX + randomBytes(16).toString('base64url')
    const expiresAt = this.now() + this.ttlMs
    this.entries.set(token, { binding: { ...binding }, expiresAt, used: false })
    return { token, expiresAt, ttlMs: this.ttlMs }
  }

  /** Whether `token` would redeem for `binding`, without using it up. */
  check(token: unknown, binding: DenialBinding): RedeemResult {
    if (typeof token !== 'string') return this.failure('unknown')
    const entry = this.entries.get(token)
    if (entry === undefined) return this.failure('unknown')
    if (entry.used) return this.failure('used')
    if (this.now() >= entry.expiresAt) return this.failure('expired')
    // A mismatch does not use the token up: an unrelated call must not be able to burn the real retry's token.
    const differs = differingField(entry.binding, binding)
    if (differs !== undefined)
      return {
        ok: false,
        reason: 'mismatch',
        message: `${FAILURE_TEXT.mismatch}: this retry has ${FIELD_TEXT[differs]}`,
      }
    return { ok: true }
  }

  /** Checks and, on success, uses the token up (synchronously, so two parallel retries cannot both redeem it). */
  redeem(token: unknown, binding: DenialBinding): RedeemResult {
    const result = this.check(token, binding)
    if (result.ok) (this.entries.get(token as string) as Entry).used = true
    return result
  }

  /** Live (unused, unexpired) tokens. */
  get size(): number {
    this.purge()
    let live = 0
    for (const entry of this.entries.values()) if (!entry.used) live++
    return live
  }

  private purge(): void {
    const now = this.now()
    for (const [token, entry] of this.entries) if (now >= entry.expiresAt) this.entries.delete(token)
  }

  private failure(reason: RedeemFailure): RedeemResult {
    return { ok: false, reason, message: FAILURE_TEXT[reason] }
  }
}
