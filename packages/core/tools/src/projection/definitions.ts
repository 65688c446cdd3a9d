import { parsePointer, toPointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonObject, type JsonValue, ownValue } from '../json/json-value.ts'
import type { RefRules } from './profiles.ts'

export type DefinitionMap = '$defs' | 'definitions'

/** A `$ref` the route takes as a reference: it names one entry of a definition map of the document. */
export interface KeptRef {
  /** The map and the entry's key in it, as the document spells them. */
  readonly map: DefinitionMap
  readonly key: string
  /** The `$ref`'s own spelling of the key (a pointer segment, maybe percent-encoded): kept as written on the wire. */
  readonly segment: string
  readonly target: JsonValue
  /** The entry's place on the wire (`map/key`): one per entry, whatever the spelling of the reference. */
  readonly id: string
  /** The entry's JSON pointer in the declared schema. */
  readonly pointer: string
}

/** A definition map beside a kept `$ref` is where a wire's definitions were placed (`root-property`): sent again. */
export function isDefinitionMap(key: string): key is DefinitionMap {
  return key === '$defs' || key === 'definitions'
}

// `#/$defs/Name`, or the same map inside a root property (where the `root-property` placement put it).
const KEPT_FORM = /^#(?:\/properties\/[^/]+)?\/(\$defs|definitions)\/([^/]+)$/

function percentDecoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * The definition a `$ref` names when the route takes it as a reference (`RefRules`): a pointer to an entry of a
 * definition map at the root (or inside a root property), with nothing beside it but the siblings the route allows
 * (and keeps). `undefined`: the reference is inlined.
 */
export function keptRef(
  document: JsonObject,
  node: JsonObject,
  rules: RefRules,
  keeps: ReadonlySet<string>,
): KeptRef | undefined {
  const ref = node.$ref
  if (typeof ref !== 'string') return undefined
  const form = KEPT_FORM.exec(ref)
  if (form === null) return undefined
  const map = form[1] as DefinitionMap
  if (!rules.maps.has(map)) return undefined
  for (const key of Object.keys(node))
    if (key !== '$ref' && !isDefinitionMap(key) && !(rules.siblings.has(key) && keeps.has(key)))
      return undefined
  const segments = parsePointer(ref)!
  const properties = ownValue(document, 'properties')
  const holder =
    segments.length === 2
      ? document
      : isJsonObject(properties)
        ? ownValue(properties, segments[1]!)
        : undefined
  const entries = isJsonObject(holder) ? ownValue(holder, map) : undefined
  if (!isJsonObject(entries)) return undefined
  const written = segments[segments.length - 1]!
  const key = Object.hasOwn(entries, written) ? written : percentDecoded(written)
  if (!Object.hasOwn(entries, key)) return undefined
  const target = entries[key]!
  if (!isJsonObject(target) && typeof target !== 'boolean') return undefined
  return {
    map,
    key,
    segment: form[2]!,
    target,
    id: `${map}/${key}`,
    pointer: toPointer([...segments.slice(0, -1), key]),
  }
}

/** The wire spelling of a kept reference: at the root's map, or at the map inside root property `host`. */
export function wireRef(kept: KeptRef, host: string | undefined): string {
  const at =
    host === undefined
      ? ''
      : `/properties/${encodeURIComponent(host.replaceAll('~', '~0').replaceAll('/', '~1'))}`
  return `#${at}/${kept.map}/${kept.segment}`
}

/**
 * Where the `root-property` placement puts the definitions: the root property that already holds a definition map
 * (an earlier projection put it there), else the one with the shortest name whose schema is an object.
 */
export function definitionHost(document: JsonObject): string | undefined {
  const properties = document.properties
  if (!isJsonObject(properties)) return undefined
  const names = Object.keys(properties).filter((name) => isJsonObject(properties[name]))
  const holding = names.find((name) => {
    const schema = properties[name] as JsonObject
    return Object.hasOwn(schema, '$defs') || Object.hasOwn(schema, 'definitions')
  })
  // Every reference is re-pointed through the host: the shortest name costs least.
  return (
    holding ??
    names.reduce<string | undefined>(
      (best, name) => (best === undefined || name.length < best.length ? name : best),
      undefined,
    )
  )
}
