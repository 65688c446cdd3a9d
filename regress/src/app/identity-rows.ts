import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Check, Observed, Row } from '../row.ts'
import { describeTurn, resultsSeen, type Turn } from './app-session.ts'
import { type AppRows, GROUP, insertLayer } from './group-parts.ts'

/**
 * DSH's own packages compare a tool's registered definition by identity: tool-skill sends its `<available_skills>`
 * reminder only while `ctx.tools.get('skill', agent) === skillTool`, and tool-fs-search spills a `glob`/`grep`
 * result over 100 matches to a file only while `ctx.tools.get(exec.name, exec.agent) === tool` (`direct-call.ts`).
 * The overlay used to hand DSH a copy of every tool, so both stopped in a hardened profile (issue 23). Each row runs
 * the real app, stock profile and hardened one, and looks at what reached the model.
 */
const SKILL = 'acme-release-notes'
const SKILL_TEXT = `---
name: ${SKILL}
description: Writes release notes from the merged pull requests of a tag range.
---

Collect the merged pull requests between the two tags and group them by label.
`

function skillLeg(turn: Turn): Observed {
  const first = turn.agentRequests[0]
  const told =
    first?.messagesText.includes('<available_skills>') === true && first.messagesText.includes(SKILL)
  const works = turn.run.exitCode === 0 && told
  return {
    outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : 'turn-fails',
    works,
    detail: `${describeTurn(turn)}; the first agent request ${told ? 'lists' : 'does not list'} ${SKILL} in <available_skills>`,
  }
}

export async function skillReminderRow(parts: AppRows): Promise<Row> {
  const dir = join(parts.home.dir, 'skills', SKILL)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'SKILL.md'), SKILL_TEXT)
  const stock = await parts.turn({ profile: parts.stockProfile, patch: '', prompt: 'Say done.' })
  const hardened = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay')),
    prompt: 'Say done.',
  })
  const checks: Check[] = [
    { what: `stock DSH tells the model about ${SKILL} (<available_skills>)`, ok: skillLeg(stock).works },
    { what: `the hardened profile tells the model about ${SKILL} too`, ok: skillLeg(hardened).works },
  ]
  return {
    id: 'app-skill-reminder',
    group: GROUP,
    kind: 'guard',
    proves:
      "DSH's skill reminder, which needs the skill tool's own definition in the registry, reaches the model with the overlay",
    source: 'issue 23 (DSH behaves as stock)',
    stock: skillLeg(stock),
    hardened: skillLeg(hardened),
    checks,
  }
}

const FILES = 150
const SPILLED = 'Full sorted result stored at:'

function globLeg(turn: Turn): Observed {
  const result = resultsSeen(turn.requests).get('call_0_0')
  const spilled = result?.includes(SPILLED) === true
  const works = turn.run.exitCode === 0 && spilled
  return {
    outcome: works ? 'works' : turn.run.exitCode !== 0 ? 'dsh-fails' : 'turn-fails',
    works,
    detail: `${describeTurn(turn)}; the glob result ${result === undefined ? 'never reached the model' : spilled ? 'names its spill file' : `is inline (${result.length} chars)`}`,
  }
}

export async function globSpillRow(parts: AppRows): Promise<Row> {
  const dir = join(parts.home.workspace, 'spill-fixture')
  mkdirSync(dir, { recursive: true })
  for (let index = 0; index < FILES; index++)
    writeFileSync(join(dir, `note-${String(index).padStart(3, '0')}.md`), `note ${index}\n`)
  const script = [{ toolCalls: [{ name: 'glob', arguments: { pattern: 'spill-fixture/*.md' } }] }]
  const stock = await parts.turn({ profile: parts.stockProfile, patch: '', script })
  const hardened = await parts.turn({
    profile: parts.hardenedProfile,
    patch: insertLayer(parts.ours('@dsh-harden/overlay')),
    script,
  })
  const checks: Check[] = [
    {
      what: `stock DSH spills a glob of ${FILES} files to a file and tells the model where`,
      ok: globLeg(stock).works,
    },
    { what: 'the hardened profile spills it the same way', ok: globLeg(hardened).works },
  ]
  return {
    id: 'app-glob-spill',
    group: GROUP,
    kind: 'guard',
    proves:
      "tool-fs-search's spill of a large glob result, which needs glob's own definition in the registry, works with the overlay",
    source: 'issue 23 (DSH behaves as stock)',
    stock: globLeg(stock),
    hardened: globLeg(hardened),
    checks,
  }
}
