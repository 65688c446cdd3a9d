import { Inject } from '@deepseek-ai/cordis'

export interface InjectReading {
  /** Every service cordis 4 waits for before it runs the plugin (all `inject` keys are required in cordis 4). */
  readonly required: readonly string[]
  readonly notes: readonly string[]
}

/**
 * Reads a plugin's `inject` the way cordis 4 does (`Inject.resolve`): an array of names or a name → intercept-config
 * map, every key required. The cordis 3 `{ required, optional }` form is read literally by cordis 4, so it is noted.
 */
export function readInject(plugin: unknown): InjectReading {
  let inject: unknown
  try {
    inject = (plugin as { inject?: unknown } | null)?.inject
  } catch (error) {
    return { required: [], notes: [`reading the plugin's \`inject\` threw: ${messageOf(error)}`] }
  }
  if (inject === undefined || inject === null) return { required: [], notes: [] }
  if (typeof inject !== 'object') {
    return {
      required: [],
      notes: [`\`inject\` is a ${typeof inject}, not an array or an object; cordis ignores it`],
    }
  }
  const required = Object.keys(Inject.resolve(inject as Inject))
  const notes: string[] = []
  if (!Array.isArray(inject) && ('required' in inject || 'optional' in inject)) {
    notes.push(
      '`inject` uses the cordis 3 form { required, optional }; cordis 4 reads every key as a required service name, so it ' +
        'waits for services named "required"/"optional" and this plugin would never start in DSH. Write `inject: [...names]`.',
    )
  }
  if (!Array.isArray(inject)) {
    const optional = Object.entries(inject).filter(
      ([, config]) => (config as { required?: unknown } | null)?.required === false,
    )
    for (const [name] of optional) {
      notes.push(
        `\`inject\` marks "${name}" as { required: false }; cordis 4 has no optional injection (the value is intercept ` +
          `config), so it still waits for "${name}". Read an optional service with ctx.get("${name}") instead.`,
      )
    }
  }
  return { required, notes }
}

/** The JavaScript errors whose name tells a plugin author what kind of mistake their code made. */
const LANGUAGE_ERRORS = new Set([
  'AggregateError',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
])

/**
 * One line for an error. The name is kept only for JavaScript's own error kinds (`TypeError: x is not a function`
 * from a plugin); any other class name (`PluginLoadError`, `McpListError`, an SDK's `McpError`) is an
 * implementation detail whose message already says what went wrong.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error)
    return `${LANGUAGE_ERRORS.has(error.name) ? `${error.name}: ` : ''}${error.message}`
  try {
    return `a thrown ${typeof error}: ${String(error)}`
  } catch {
    return `a thrown ${typeof error}`
  }
}
