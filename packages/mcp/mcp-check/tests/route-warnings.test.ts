import { afterAll, describe, expect, it } from 'vitest'
import { profileVerdicts } from '../src/clients/profiles.ts'
import { checkServer, renderReport } from '../src/index.ts'
import { binOf, listedTools, nodeTarget, scratchDir } from './servers.ts'

const scratch = scratchDir('dsh-harden-route-warnings-')
afterAll(() => scratch.remove())

const MEMORY = {
  bin: binOf('@modelcontextprotocol/server-memory'),
  args: [],
  env: { MEMORY_FILE_PATH: `${scratch.dir}/memory.jsonl` },
}
const SERVERS = [
  { id: 'everything', bin: binOf('@modelcontextprotocol/server-everything'), args: ['stdio'], env: {} },
  { id: 'filesystem', bin: binOf('@modelcontextprotocol/server-filesystem'), args: [scratch.dir], env: {} },
  { id: 'memory', ...MEMORY },
  {
    id: 'sequential-thinking',
    bin: binOf('@modelcontextprotocol/server-sequential-thinking'),
    args: [],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
  },
]

// Routes with no source reporting a refusal of metadata keywords (PROFILES.md); `$schema` there is a wire change.
const TAKE_METADATA = ['deepseek', 'openai', 'codex']

describe('mcp check on the four reference servers: a route warning is a refusal', () => {
  for (const server of SERVERS) {
    it(`${server.id}: deepseek, openai and codex refuse no tool; $schema shows as a wire change, a Codex optional as a misread`, async () => {
      const tools = await listedTools(server.bin, server.args, server.env)
      expect(tools.length).toBeGreaterThan(0)
      for (const verdict of profileVerdicts(tools)) {
        expect(verdict.hardened, verdict.profile).toEqual([])
        if (!TAKE_METADATA.includes(verdict.profile)) continue
        expect(verdict.verbatim, verdict.profile).toEqual([])
        for (const change of verdict.wireOnly)
          expect(change.reason).toMatch(/^\/\$schema .*metadata is not sent$/)
        // Codex fills declared optional fields (#1149): taken, not refused, and read back by the overlay.
        for (const misread of verdict.misread)
          expect(misread.reason).toMatch(
            /^\/properties\/\S+: codex: an optional field that does not admit null \(fix: /,
          )
        if (verdict.profile !== 'codex') expect(verdict.misread, verdict.profile).toEqual([])
      }
    }, 600_000)
  }

  it('memory: the text report lists deepseek under wire changes, never under "would refuse"', async () => {
    const report = await checkServer(nodeTarget(MEMORY.bin, MEMORY.args, MEMORY.env), { claude: false })
    const text = renderReport(report)
    const refuse = text.split('\n').findIndex((line) => line.startsWith('Model routes'))
    const wire = text.split('\n').findIndex((line) => line.startsWith('Changes on the wire, not refusals'))
    expect(refuse).toBeGreaterThan(-1)
    expect(wire).toBeGreaterThan(refuse)
    const refusing = text
      .split('\n')
      .slice(refuse + 1, wire)
      .join('\n')
    expect(refusing).not.toMatch(/^ {2}(deepseek|openai|codex) /m)
    // What the memory server's schemas really lack on strict routes is still a warning.
    expect(refusing).toMatch(/^ {2}openai-strict +9\/9 .* -> 0\/9$/m)
    expect(
      text
        .split('\n')
        .slice(wire + 1)
        .join('\n'),
    ).toMatch(/^ {2}deepseek +9\/9 .*: \/\$schema deepseek: metadata is not sent$/m)
  }, 600_000)
})
