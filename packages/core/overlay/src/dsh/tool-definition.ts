import type { Registration } from './registrant.ts'

/** The slice of DSH's `ToolDefinition` the overlay reads; everything else passes through untouched. */
export interface RegisteredTool {
  readonly name?: unknown
  readonly parameters?: unknown
}

/** DSH's `ToolRuntime.register(definition)` (`packages/core/tools/src/index.ts`): returns the unregister. */
export type RegisterMethod<D extends RegisteredTool = RegisteredTool> = (
  this: unknown,
  definition: D,
) => () => void

/** The tool's name as verdicts and notices give it, whatever `name` holds. */
export function toolNameOf(definition: RegisteredTool | undefined): string {
  try {
    const name = definition?.name
    return typeof name === 'string' ? name : `<unnamed: ${typeof name}>`
  } catch {
    return '<unreadable name>'
  }
}

/** The condition of DSH's first check in `ToolRuntime.register()` (packages/core/tools/src/index.ts). */
export function declaresCanonicalOutput(definition: unknown): boolean {
  try {
    const output = (definition as { output?: unknown } | null)?.output as
      | { render?: unknown; presentationMeta?: unknown }
      | undefined
    return (
      typeof output === 'object' &&
      output !== null &&
      typeof output.render === 'function' &&
      (output.presentationMeta === undefined || typeof output.presentationMeta === 'function')
    )
  } catch {
    return false
  }
}

/**
 * An extension point for tool packages (`@dsh-harden/tool-bash`, `-tool-pwsh`, `-tool-fs`): change one tool's
 * definition as it registers, before the overlay's contract and projection see it. Order-independent: whether the
 * overlay or the tool package loads first, every transform runs before the contract, once per registration; a tool
 * registered before the transform was added is rebuilt in place in DSH's registry (`registry.ts`) from the definition
 * its plugin registered, through every transform, and judged once; removing a transform rebuilds each tool it changed
 * without it (`transforms.ts`).
 */
export interface DefinitionTransform {
  /** Who added it, for diagnostics. */
  readonly name: string
  /**
   * The definition to register instead, or `undefined` to leave this one as it is. `registration.source` names the
   * plugin that registers the tool, so a transform can select DSH's own first-party tools by who registers them.
   */
  transform(definition: RegisteredTool, registration: Registration): RegisteredTool | undefined
}
