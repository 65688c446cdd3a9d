import type { ProjectionChange } from '../projection/types.ts'

/**
 * Projection changes that alter what the model sends, so the arguments must be read back before a server sees them.
 * The one decoder is `ToolContract.parseArguments`, which the dsh-harden overlay runs in DSH before every tool executes
 * (plugin tools and MCP tools alike). `dsh-harden mcp repair` and the lazy gateway serve schemas unprojected and decode
 * nothing, so a wire schema used outside the overlay changes what the server receives.
 */
const DECODE_NOTES: Readonly<Partial<Record<ProjectionChange['action'], string>>> = {
  'encoded-json':
    'the model sends this value as JSON text; without a decoder the server receives a string instead of the value',
  renamed:
    'the model sends this key under its wire name; without a decoder the server receives the wire name instead of its own',
  'widened-nullable':
    'the model may send null here for "not provided"; without a decoder the server receives null instead of no field',
}

/** Why `change` needs a decoder on the way back, or `undefined` when the server receives what it declared. */
export function decoderNote(change: ProjectionChange): string | undefined {
  return DECODE_NOTES[change.action]
}
