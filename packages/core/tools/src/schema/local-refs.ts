import { parsePointer } from '../json/json-pointer.ts'
import { isJsonObject, type JsonValue, ownValue } from '../json/json-value.ts'
import { subschemasOf } from './subschemas.ts'

/**
 * Local `$ref` resolution, one definition for the root contract (`schema-shape.ts`, which refuses what does not
 * resolve) and for projection (which inlines what does): a JSON pointer fragment, percent-decoded as a URI fragment (RFC 6901 §6), or a plain-name
 * fragment naming an `$anchor` (2020-12) or an `$id: "#name"` (draft-07). Routes that need references inlined get
 * the target.
 */
export interface LocalRefs {
  readonly document: JsonValue
  /** Built on the first plain-name reference: one walk of the document. */
  anchors: Map<string, JsonValue> | undefined
}

export function localRefs(document: JsonValue): LocalRefs {
  return { document, anchors: undefined }
}

function anchorsOf(document: JsonValue): Map<string, JsonValue> {
  const anchors = new Map<string, JsonValue>()
  const pending: JsonValue[] = [document]
  while (pending.length > 0) {
    const node = pending.pop()!
    if (!isJsonObject(node)) continue
    const anchor = ownValue(node, '$anchor')
    const id = ownValue(node, '$id')
    if (typeof anchor === 'string' && !anchors.has(anchor)) anchors.set(anchor, node)
    if (typeof id === 'string' && id.startsWith('#') && !anchors.has(id.slice(1)))
      anchors.set(id.slice(1), node)
    for (const sub of subschemasOf(node)) pending.push(sub.schema)
  }
  return anchors
}

function percentDecoded(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function walkPointer(document: JsonValue, segments: readonly string[]): JsonValue | undefined {
  let at: JsonValue | undefined = document
  for (const segment of segments) {
    at = Array.isArray(at)
      ? /^(0|[1-9][0-9]*)$/.test(segment)
        ? at[Number(segment)]
        : undefined
      : isJsonObject(at)
        ? ownValue(at, segment)
        : undefined
    if (at === undefined) return undefined
  }
  return at
}

export function resolveLocalRef(refs: LocalRefs, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#')) return undefined
  const segments = parsePointer(ref)
  if (segments === undefined) {
    refs.anchors ??= anchorsOf(refs.document)
    return refs.anchors.get(percentDecoded(ref.slice(1)))
  }
  // A pointer as written, then percent-decoded: a key may itself contain `%`.
  return walkPointer(refs.document, segments) ?? walkPointer(refs.document, segments.map(percentDecoded))
}
