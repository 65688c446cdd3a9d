import type { CheckTarget } from '../target.ts'
import type { RawConnection } from './exchange.ts'
import { openHttp } from './http.ts'
import { openStdio } from './stdio.ts'

export function openRaw(target: CheckTarget): RawConnection {
  return target.kind === 'http'
    ? openHttp({ url: target.url, headers: target.headers })
    : openStdio({ command: target.command, args: target.args, env: target.env, cwd: target.cwd })
}
