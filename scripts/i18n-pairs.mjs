#!/usr/bin/env node
// Keeps each Chinese copy (`X.zh.md`) in step with its English source (`X.md`), as DSH does with its
// `README.i18n.yaml` files: `X.i18n.yaml` beside the pair records the git blob hash of each side as of the last time
// someone confirmed they say the same thing. A side whose hash differs from its record has changed since: the other
// side must be brought along, and the pair recorded again.
//
//   node scripts/i18n-pairs.mjs                 check every pair; exit 1 naming each pair out of step
//   node scripts/i18n-pairs.mjs --write X.md    record X.md and X.zh.md as in step (after bringing them in step)
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
// Folders no pair lives in: installs, build output, caches, and mutation-testing sandboxes.
const SKIP = new Set(['node_modules', 'dist', '.git', '.turbo', '.stryker', '.stryker-tmp', 'reports'])

/** The git blob hash of a file's bytes (`git hash-object`), so a record can be checked without git. */
function blobHash(file) {
  const bytes = readFileSync(file)
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/** Every `X.zh.md` with its English `X.md` beside it, as paths relative to the root. */
function findPairs(dir = ROOT, found = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) findPairs(path, found)
    else if (name.endsWith('.zh.md')) found.push(relative(ROOT, `${path.slice(0, -'.zh.md'.length)}.md`))
  }
  return found.sort()
}

const recordOf = (english) => `${english.slice(0, -'.md'.length)}.i18n.yaml`
const chineseOf = (english) => `${english.slice(0, -'.md'.length)}.zh.md`

function readRecord(file) {
  const record = new Map()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([^#:\s][^:]*):\s*([0-9a-f]{40})\s*$/.exec(line)
    if (match) record.set(match[1], match[2])
  }
  return record
}

function writeRecord(english) {
  const abs = join(ROOT, english)
  const zh = chineseOf(abs)
  if (!existsSync(abs) || !existsSync(zh))
    throw new Error(`${english}: both ${basename(abs)} and ${basename(zh)} must exist`)
  const text =
    '# Bilingual pair record (scripts/i18n-pairs.mjs): the git blob hash of each side as of the last time both were\n' +
    '# confirmed to say the same thing. After editing either side, bring the other along, then re-record with:\n' +
    `#   node scripts/i18n-pairs.mjs --write ${english}\n` +
    `${basename(abs)}: ${blobHash(abs)}\n${basename(zh)}: ${blobHash(zh)}\n`
  writeFileSync(join(ROOT, recordOf(english)), text)
}

/** One line per pair out of step, saying which side changed and what to do. */
export function pairProblems() {
  const problems = []
  for (const english of findPairs()) {
    const recordFile = join(ROOT, recordOf(english))
    const zh = chineseOf(english)
    if (!existsSync(join(ROOT, english))) {
      problems.push(`${zh}: no English source ${english} beside it`)
      continue
    }
    if (!existsSync(recordFile)) {
      problems.push(
        `${english}: no ${basename(recordFile)}; bring the pair in step, then: node scripts/i18n-pairs.mjs --write ${english}`,
      )
      continue
    }
    const record = readRecord(recordFile)
    const changed = [english, zh].filter((side) => record.get(basename(side)) !== blobHash(join(ROOT, side)))
    if (changed.length > 0)
      problems.push(
        `${english}: ${changed.map((side) => basename(side)).join(' and ')} changed since the pair was recorded in step; ` +
          `bring the other side along, then: node scripts/i18n-pairs.mjs --write ${english}`,
      )
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--write')
  if (at !== -1) {
    const target = process.argv[at + 1]
    if (target === undefined || !target.endsWith('.md') || target.endsWith('.zh.md')) {
      console.error('usage: node scripts/i18n-pairs.mjs --write <English X.md whose X.zh.md is in step>')
      process.exit(2)
    }
    writeRecord(relative(ROOT, resolve(target)))
    console.log(`i18n-pairs: recorded ${relative(ROOT, resolve(target))} and its Chinese copy as in step`)
  } else {
    const problems = pairProblems()
    for (const line of problems) console.error(`i18n-pairs: ${line}`)
    if (problems.length > 0) process.exit(1)
    console.log(`i18n-pairs: ${findPairs().length} pairs in step`)
  }
}
