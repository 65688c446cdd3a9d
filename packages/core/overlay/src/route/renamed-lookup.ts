import { installOwnMethod } from '../dsh/own-method.ts'

type GetMethod = (this: unknown, name: string, scope?: unknown) => unknown

/**
 * Lets readers that look a tool up by the name the model called (the Web UI's presenters, from the transcript's
 * `tool/call`) find it under the name it was registered with: an own `get` on the tools instance falls back to
 * `registeredName(name, scope)` when the name is not found. Returns the uninstaller.
 */
export function installRenamedLookup(
  tools: object,
  registeredName: (name: string, scope?: unknown) => string | undefined,
): () => void {
  return installOwnMethod<'get', GetMethod>(
    tools as { get: GetMethod },
    'get',
    (previous) =>
      function (this: unknown, name: string, scope?: unknown) {
        const found = previous.call(this, name, scope)
        if (found !== undefined || typeof name !== 'string') return found
        const registered = registeredName(name, scope)
        return registered === undefined ? found : previous.call(this, registered, scope)
      },
  )
}
