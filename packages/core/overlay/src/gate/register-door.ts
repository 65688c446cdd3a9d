import type { JsonSchemaError } from '@dsh-harden/tools'
import { recordOrigin } from '../dsh/instance-state.ts'
import type { StillInstalled } from '../dsh/own-method.ts'
import type { Registration } from '../dsh/registrant.ts'
import { toolsOfReceiver } from '../dsh/registry.ts'
import { declaresCanonicalOutput, type RegisteredTool, type RegisterMethod } from '../dsh/tool-definition.ts'
import { beginRegistration, endRegistration } from '../dsh/transforms.ts'

/** What one registration hands DSH: the definition to insert, an error to throw, or nothing at all. */
export type Admitted<D> =
  | { readonly insert: D }
  | { readonly refuse: JsonSchemaError }
  | { readonly skip: true }

/** Decides what one registration hands DSH, after the tool packages' definition transforms. */
export type Admit<D> = (definition: D, registration: Registration) => Admitted<D>

const unregisterNothing = (): void => {}

/** Where a `registerDoor` wrapper is installed, when it is one instance's own method. */
export interface InstalledRegister {
  /** The tools instance it is installed on. */
  readonly on?: object | undefined
  /** Set when it is installed with `installForwardingMethod`: once false, the wrapper only forwards. */
  readonly stillInstalled?: StillInstalled | undefined
}

/**
 * The top of every register call the overlay sees: wraps a `register` implementation (DSH `ToolRuntime.register`,
 * `packages/core/tools/src/index.ts`) so that, after the definition transforms, `admit` decides what the
 * registration hands it. `this` is passed through, so cordis still attributes the registration to the calling plugin
 * and disposes it with that plugin. `installed`: where it is installed, if it is one instance's own method.
 */
export function registerDoor<D extends RegisteredTool>(
  original: RegisterMethod<D>,
  admit: Admit<D>,
  installed: InstalledRegister = {},
): RegisterMethod<D> {
  const { on, stillInstalled } = installed
  return function register(this: unknown, given: D): () => void {
    if (stillInstalled !== undefined && !stillInstalled()) return original.call(this, given)
    // The instance it is installed on, when known: reading it from `this` goes through cordis' proxy.
    const tools = on ?? toolsOfReceiver(this)
    const pass = beginRegistration(tools, given, this)
    try {
      const { definition, origin } = pass
      // DSH's own first check keeps its precedence: a definition it rejects for its `output` gets DSH's error.
      if (!declaresCanonicalOutput(definition)) return original.call(this, definition)
      const admitted = admit(definition, origin.registration)
      if ('refuse' in admitted) throw admitted.refuse
      if ('skip' in admitted) return unregisterNothing
      // Noted so a transform added later rebuilds this entry from what its plugin registered.
      if (tools !== undefined) recordOrigin(tools, admitted.insert, origin)
      return original.call(this, admitted.insert)
    } finally {
      endRegistration(tools, pass)
    }
  }
}
