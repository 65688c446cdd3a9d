import { resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { userEnvironment } from '../src/doctor/user-env.ts'

/** A clone at /home/u/dsh-harden, doctor's package at packages/cli in it, the user's DSH app at ~/.dsh-app. */
const CLONE = '/home/u/dsh-harden'
const STARTED = { cwd: CLONE, selfDir: `${CLONE}/packages/cli` }
const USER_PATH = '/home/u/.dsh-app/node_modules/.bin:/usr/local/bin:/usr/bin:/bin'

describe('doctor judges dsh on the PATH of the shell it was typed in', () => {
  it('`pnpm dsh-harden doctor` at a clone: the clone’s .bin (its Node 22) and pnpm’s node-gyp-bin go', () => {
    const env = {
      PATH: `${CLONE}/node_modules/.bin:/usr/lib/node_modules/pnpm/dist/node-gyp-bin:${USER_PATH}`,
      npm_config_user_agent: 'pnpm/10.34.8 npm/? node/v20.20.2 linux x64',
      npm_lifecycle_event: 'dsh-harden',
      npm_package_json: `${CLONE}/package.json`,
      PNPM_SCRIPT_SRC_DIR: CLONE,
      INIT_CWD: CLONE,
      NODE: '/usr/bin/node',
      HOME: '/home/u',
    }
    const user = userEnvironment(env, STARTED)
    expect(user.env).toEqual({ PATH: USER_PATH, HOME: '/home/u' })
    expect(user.leftOut).toEqual([
      `${CLONE}/node_modules/.bin`,
      '/usr/lib/node_modules/pnpm/dist/node-gyp-bin',
    ])
    expect(user.packageManager).toBe('pnpm')
  })

  it('`pnpm exec` in a package: its relative ./node_modules/.bin, the workspace’s, and the NODE_PATH pnpm set', () => {
    const env = {
      PATH: `./node_modules/.bin:${CLONE}/node_modules/.bin:${USER_PATH}`,
      npm_config_user_agent: 'pnpm/10.34.8 npm/? node/v20.20.2 linux x64',
      npm_command: 'exec',
      NODE_PATH: `${CLONE}/node_modules/.pnpm/node@22.23.3/node_modules:/opt/mine`,
    }
    const user = userEnvironment(env, { ...STARTED, cwd: `${CLONE}/packages/cli` })
    expect(user.env).toEqual({ PATH: USER_PATH, NODE_PATH: '/opt/mine' })
  })

  it('`npx`: the npx cache folder doctor runs from goes, the folder the user is in keeps its own .bin out', () => {
    const cache = '/home/u/.npm/_npx/0123abcd'
    const env = { PATH: `${cache}/node_modules/.bin:${USER_PATH}`, npm_command: 'exec' }
    const user = userEnvironment(env, {
      cwd: '/home/u/work',
      selfDir: `${cache}/node_modules/@dsh-harden/cli`,
    })
    expect(user.env.PATH).toBe(USER_PATH)
  })

  it('run directly (no package manager), the PATH is the shell’s as it is', () => {
    const env = { PATH: `${CLONE}/node_modules/.bin:${USER_PATH}`, HOME: '/home/u' }
    expect(userEnvironment(env, STARTED)).toEqual({ env, leftOut: [], packageManager: undefined })
  })

  it('whatever the user’s PATH and whatever the package manager put in front, the user’s PATH is what remains', () => {
    // The user's entries: anything but a .bin of the folders doctor runs in (which only a package manager adds).
    const userEntry = fc.constantFrom(
      '/home/u/.dsh-app/node_modules/.bin',
      '/home/u/other/node_modules/.bin',
      '/usr/bin',
      '/bin',
      "/home/u/it's a dir",
      'relative/bin',
      '',
    )
    const added = fc.constantFrom(
      `${CLONE}/node_modules/.bin`,
      `${CLONE}/packages/cli/node_modules/.bin`,
      '/home/u/node_modules/.bin',
      './node_modules/.bin',
      '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
    )
    fc.assert(
      fc.property(
        fc.array(added, { maxLength: 5 }),
        fc.array(userEntry, { minLength: 1, maxLength: 6 }),
        (prefix, mine) => {
          const env = { PATH: [...prefix, ...mine].join(':'), npm_lifecycle_event: 'x' }
          const user = userEnvironment(env, STARTED)
          expect(user.env.PATH).toBe(mine.join(':'))
          expect(user.leftOut).toEqual(prefix.map((entry) => resolve(CLONE, entry)))
        },
      ),
      { numRuns: 300 },
    )
  })
})
