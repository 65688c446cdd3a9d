import type { RegisteredTool, RegisterMethod } from '../dsh/tool-definition.ts'
import { guardRegister, type RegistrationGuardOptions } from './bare-guard.ts'

/** Any class with DSH's `register(definition)` on its prototype: `ToolRuntime` from `@deepseek-ai/dsh-tools`. */
export interface ToolRuntimeClass<D extends RegisteredTool = RegisteredTool> {
  readonly prototype: { register: RegisterMethod<D> }
}

/**
 * Guards `register` on the class prototype, for test suites that construct their own `ToolRuntime`. Process-wide
 * for that copy of dsh-tools: call the returned function to restore the original method.
 */
export function installOnToolRuntimePrototype<D extends RegisteredTool>(
  runtime: ToolRuntimeClass<D>,
  options: RegistrationGuardOptions = {},
): () => void {
  const prototype = runtime.prototype
  const previous = prototype.register
  if ((previous as { dshHardened?: true }).dshHardened) {
    throw new Error(
      'dsh-harden: ToolRuntime.prototype.register is already guarded; call the uninstaller returned by the first install',
    )
  }
  const guarded = Object.assign(guardRegister(previous, options), { dshHardened: true as const })
  prototype.register = guarded
  return () => {
    prototype.register = previous
  }
}
