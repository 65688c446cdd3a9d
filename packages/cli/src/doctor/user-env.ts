import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/**
 * The environment of the shell a user typed `dsh-harden doctor` in, however doctor was started. `pnpm dsh-harden
 * doctor`, `pnpm exec`, `npm run` and `npx` put their own `node_modules/.bin` folders (and a `node-gyp-bin`) in
 * front of PATH; the workspace's is where its Node 22 is, so a `dsh` whose shebang is `#!/usr/bin/env node` would be
 * judged on a Node the user's own `dsh` never runs on. They also set `npm_*` variables and `NODE_PATH`, which the
 * user's `dsh` would not see.
 *
 * Why strip rather than ask a login shell (`$SHELL -lc 'command -v dsh'`): a login shell reads ~/.profile, not
 * ~/.bashrc, where INSTALL.md puts the PATH line (and most ~/.bashrc files return at once when not interactive), and
 * it never sees a PATH exported in the shell the user is in. What the package manager put in front is known
 * exactly: it prepends, so only a leading run of its folders goes, and a folder of the user's own later on PATH
 * (`~/.dsh-app/node_modules/.bin`) stays.
 */
export interface UserEnvironment {
  readonly env: NodeJS.ProcessEnv
  /** The PATH entries left out, in order, as absolute folders (none when no package manager started doctor). */
  readonly leftOut: readonly string[]
  /** `pnpm`, `npm`, … from `npm_config_user_agent`, when one started doctor. */
  readonly packageManager: string | undefined
}

export interface Started {
  /** The folder doctor was started in. */
  readonly cwd: string
  /** The folder of the package doctor runs from (a workspace clone's `packages/cli`, or under node_modules). */
  readonly selfDir: string
}

/** Variables only a package manager sets for the scripts it runs. */
const PACKAGE_MANAGER_VARIABLE = /^(npm_|pnpm_)|^(PNPM_PACKAGE_NAME|PNPM_SCRIPT_SRC_DIR|INIT_CWD|NODE)$/

function startedByPackageManager(env: NodeJS.ProcessEnv): boolean {
  return ['npm_config_user_agent', 'npm_lifecycle_event', 'npm_command', 'npm_execpath'].some(
    (name) => (env[name] ?? '') !== '',
  )
}

/** `dir` is `root` or a folder above it. */
function encloses(dir: string, root: string): boolean {
  const path = relative(dir, root)
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path))
}

/** The project folders a package manager runs in: each folder of theirs goes on PATH as `<folder>/node_modules/.bin`. */
function projectRoots(env: NodeJS.ProcessEnv, started: Started): string[] {
  const roots = [started.cwd, started.selfDir]
  for (const dir of [env.INIT_CWD, env.PNPM_SCRIPT_SRC_DIR]) if (dir) roots.push(dir)
  if (env.npm_package_json) roots.push(dirname(env.npm_package_json))
  return roots
}

/** Pure: the user's environment from the one a package manager gave doctor. */
export function userEnvironment(env: NodeJS.ProcessEnv, started: Started): UserEnvironment {
  if (!startedByPackageManager(env)) return { env, leftOut: [], packageManager: undefined }
  const roots = projectRoots(env, started)
  const entries = (env.PATH ?? '').split(delimiter)
  const projects: string[] = []
  let kept = 0
  for (; kept < entries.length; kept++) {
    const entry = entries[kept]!
    const dir = resolve(started.cwd, entry)
    if (dir.endsWith(`${sep}node-gyp-bin`)) continue
    const project = dir.endsWith(join('node_modules', '.bin')) ? dirname(dirname(dir)) : undefined
    if (project === undefined || !roots.some((root) => encloses(project, root))) break
    projects.push(project)
  }
  const clean: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env))
    if (!PACKAGE_MANAGER_VARIABLE.test(name)) clean[name] = value
  clean.PATH = entries.slice(kept).join(delimiter)
  // `pnpm exec` points NODE_PATH into the project's node_modules; pnpm's `dsh` shim would pass that on to DSH.
  const nodePath = (env.NODE_PATH ?? '')
    .split(delimiter)
    .filter(
      (entry) => entry !== '' && !projects.some((project) => encloses(join(project, 'node_modules'), entry)),
    )
  if (nodePath.length === 0) delete clean.NODE_PATH
  else clean.NODE_PATH = nodePath.join(delimiter)
  return {
    env: clean,
    leftOut: entries.slice(0, kept).map((entry) => resolve(started.cwd, entry)),
    packageManager: /^([\w.-]+)\//.exec(env.npm_config_user_agent ?? '')?.[1],
  }
}
