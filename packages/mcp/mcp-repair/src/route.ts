import type { IntakeOptions, IntakeResult, ListedTool } from '@dsh-harden/mcp-client'

/** A model route, as the MCP intake names it (`IntakeOptions.profile`, a profile of `@dsh-harden/tools`). */
export type RouteProfile = NonNullable<IntakeOptions['profile']>

/**
 * What a proxy does for one model route besides repairing: serve each tool as the route takes it (wire name, wire
 * input schema) and map each `tools/call` back to the declared name and shape before the server sees it. One per
 * client session: a session's own listing says how its calls map back. `dsh-harden mcp repair --route` implements it
 * over the projection of `@dsh-harden/tools`, the one the overlay applies.
 */
export interface ToolRoute {
  readonly profile: RouteProfile
  /** The served tools of one `tools/list` page for the route; remembers how each wire name maps back. */
  servePage(intake: IntakeResult): ServedPage
  /** A parsed client message on its way to the server. */
  toServer(message: unknown): Outbound
}

export interface ServedPage {
  readonly profile: RouteProfile
  /** In intake order; a tool the route takes as served is the very same object. */
  readonly tools: readonly ListedTool[]
  /** Declared name → wire name, for the names the route refuses. */
  readonly renamed: ReadonlyMap<string, string>
  /** Declared names of the tools whose input schema goes out changed for the route. */
  readonly projected: readonly string[]
}

/**
 * `same`: forward the client's bytes. `changed`: send this message instead (a call mapped back). `answered`: send
 * nothing; each request of the message is answered to the client with these JSON-RPC responses.
 */
export type Outbound =
  | { readonly kind: 'same' }
  | { readonly kind: 'changed'; readonly message: unknown }
  | { readonly kind: 'answered'; readonly answers: readonly object[] }

/** Opens the route of one client session; `server` is the server's name in diagnostics. */
export type OpenRoute = (server: string) => ToolRoute

/** The answers as one JSON-RPC message text (a batch when there are several). */
export function answersText(answers: readonly object[]): string {
  return JSON.stringify(answers.length === 1 ? answers[0] : answers)
}
