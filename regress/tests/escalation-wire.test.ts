import { escalationParameters } from '@dsh-harden/escalation'
import { checkProfileContract, createToolContract, PROFILE_IDS } from '@dsh-harden/tools'
import { describe, expect, it } from 'vitest'

/**
 * The widened escalation fields "in the form each provider profile accepts": the hardened bash schema (DSH rc.8's
 * field specs, as dumped in research §B2) projected by the overlay for every profile meets that profile's contract,
 * and `null` still reads back as `null` (the escalation normalizer, not the projection, decides it means "absent").
 */
const BASH = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The bash command to execute.' },
    description: { type: 'string', description: 'What it does.' },
    sandbox_permissions: {
      type: 'string',
      enum: ['workspace-write', 'danger-full-access'],
      description: 'The wider sandbox mode this command needs.',
    },
    justification: { type: 'string', description: 'Required with sandbox_permissions.' },
  },
  required: ['command', 'description'],
}

describe('the nullable escalation fields under every provider profile', () => {
  const widened = escalationParameters(BASH, { subject: 'command' }) as Record<string, unknown>
  const contract = createToolContract(widened, { tool: 'bash', source: 'tool-bash' })
  for (const profile of PROFILE_IDS) {
    it(`${profile}: the wire schema meets the profile and null survives the read-back`, () => {
      const { wire } = contract.projection(profile)
      expect(checkProfileContract(wire, profile)).toEqual([])
      const args = { command: 'ls', description: 'List', sandbox_permissions: null, justification: null }
      expect(contract.parseArguments(args, profile)).toMatchObject({
        sandbox_permissions: null,
        justification: null,
      })
    })
  }
})
