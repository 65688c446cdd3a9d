import type { ProjectionChange } from '../projection/types.ts'

/**
 * Projection changes that alter what the model sends, so the arguments must be read back before a server sees them.
 * The one decoder is the contract's reading (`ToolContract.parseArguments`, `normalizeArguments`): the dsh-harden
 * overlay runs it in DSH before every tool executes (plugin tools and MCP tools alike), and `dsh-harden mcp repair`
 * and `mcp gateway` run it on every call when given `--route`. Without `--route` they serve schemas unprojected and
 * decode nothing, and a wire schema `sanitize` wrote, used anywhere else, changes what the server receives.
 */
const DECODE_NOTES: Readonly<Partial<Record<ProjectionChange['action'], string>>> = {
  'encoded-json':
    'the model sends this value as JSON text; without a decoder the server receives a string instead of the value',
  renamed:
    'the model sends this key under its wire name; without a decoder the server receives the wire name instead of its own',
  'widened-nullable':
    'the model may send null here for "not provided"; without a decoder the server receives null instead of no field',
}

/** Why a tool renamed on the wire (its name outside the route's `toolNames`) needs its calls mapped back. */
export const RENAMED_TOOL_NOTE =
  'the model calls this tool by its wire name; without a decoder mapping it back the server receives a name it never declared'

/** Why `change` needs a decoder on the way back, or `undefined` when the server receives what it declared. */
export function decoderNote(change: ProjectionChange): string | undefined {
  return DECODE_NOTES[change.action]
}
