import { isAbsolute, resolve } from 'node:path'
import { canonicalPath, effectHash } from './binding-effect.ts'
import { type EscalatingDefinition, type EscalationFamily, modeOf } from './definition.ts'
import { type PolicySource, type ShellExecView, standingPolicy } from './shell-family.ts'
import { advertisesEscalation } from './transform.ts'

/** DSH tool-fs maps a provider's denial to an `FsError` with code `FS_SANDBOX_DENIED` (`FsSandboxController.mapError`). */
export function deniedFsError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'FS_SANDBOX_DENIED'
  )
}

/**
 * The family facts for DSH's `write` or `edit` definition. The effective mode is the one DSH's
 * `FsSandboxController.resolvePolicy` stamps (`sandboxPolicy.resolve({ session })`); the bound target is the file path
 * resolved against that policy's workspace root and canonicalized (symlinks resolved), and the content is bound too.
 */
export function fsFamily(
  definition: EscalatingDefinition,
  tool: 'write' | 'edit',
  policy: PolicySource,
): EscalationFamily {
  // DSH advertises the fields iff `ctx.fs.sandboxMode !== undefined`: its own "a confining filesystem is mounted".
  const confined = advertisesEscalation(definition)
  return {
    tool,
    subject: 'operation',
    effectiveMode: (exec) => (confined ? modeOf(standingPolicy(policy, exec as ShellExecView)) : undefined),
    binding(args, exec) {
      const session = (exec as ShellExecView).agent?.session.id
      const resolved = standingPolicy(policy, exec as ShellExecView)
      const mode = modeOf(resolved)
      const root = resolved?.workspaceRoot
      const path = args.file_path
      if (
        typeof session !== 'string' ||
        mode === undefined ||
        typeof root !== 'string' ||
        typeof path !== 'string'
      )
        return undefined
      const target = canonicalPath(isAbsolute(path) ? resolve(path) : resolve(root, path))
      // write: the content; edit: old_string, new_string, replace_all.
      return { session, tool, target, workdir: root, mode, effect: effectHash(args, ['file_path']) }
    },
    deniedError: deniedFsError,
  }
}
