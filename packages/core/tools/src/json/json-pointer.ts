/** RFC 6901 JSON pointers: the "where" of every violation this package reports. */

export type PointerPath = readonly (string | number)[]

function escapeSegment(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1')
}

export function toPointer(path: PointerPath): string {
  return path.map((segment) => `/${escapeSegment(segment)}`).join('')
}

function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

/** A pointer as people read it in a report: `(root)` for the empty pointer. */
export function showPointer(pointer: string): string {
  return pointer === '' ? '(root)' : pointer
}

/** Splits `#/a/b` or `/a/b` into segments; `undefined` when the text is not a pointer. */
export function parsePointer(text: string): string[] | undefined {
  const body = text.startsWith('#') ? text.slice(1) : text
  if (body === '') return []
  if (!body.startsWith('/')) return undefined
  return body.slice(1).split('/').map(unescapeSegment)
}
