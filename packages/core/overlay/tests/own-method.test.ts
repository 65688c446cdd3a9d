import { describe, expect, it } from 'vitest'
import { installForwardingMethod, installOwnMethod } from '../src/dsh/own-method.ts'

class Service {
  calls: string[] = []
  run(this: unknown, label: string): string {
    ;(this as Service).calls.push(`run ${label}`)
    return label
  }
}

type Run = (this: unknown, label: string) => string

function tagging(name: string): (previous: Run) => Run {
  return (previous) =>
    function (this: unknown, label: string) {
      ;(this as Service).calls.push(name)
      return previous.call(this, label)
    }
}

function forwardingTagging(name: string) {
  return (previous: Run, stillInstalled: () => boolean): Run =>
    function (this: unknown, label: string) {
      if (stillInstalled()) (this as Service).calls.push(name)
      return previous.call(this, label)
    }
}

describe('own methods on a live service instance', () => {
  it('are installed as the wrapper itself when it forwards on its own: no extra frame', () => {
    const service = new Service()
    let wrapper: Run | undefined
    installForwardingMethod<'run', Run>(service, 'run', (previous, stillInstalled) => {
      wrapper = forwardingTagging('outer')(previous, stillInstalled)
      return wrapper
    })
    expect(service.run).toBe(wrapper)
    expect(service.run('a')).toBe('a')
    expect(service.calls).toEqual(['outer', 'run a'])
  })

  it('come off exactly when on top, and turn into pass-throughs when covered, for both installers', () => {
    for (const install of ['forwarding', 'hop'] as const) {
      const service = new Service()
      const first =
        install === 'forwarding'
          ? installForwardingMethod<'run', Run>(service, 'run', forwardingTagging('first'))
          : installOwnMethod<'run', Run>(service, 'run', tagging('first'))
      const second = installOwnMethod<'run', Run>(service, 'run', tagging('second'))
      // Removed while covered: the later wrapper keeps calling it, and it only forwards.
      first()
      service.run('x')
      expect(service.calls).toEqual(['second', 'run x'])
      // The top one comes off; what is left is a pass-through over the prototype's method.
      second()
      service.calls = []
      service.run('y')
      expect(service.calls).toEqual(['run y'])
      expect(Object.hasOwn(service, 'run')).toBe(true)
    }
  })

  it('restore the prototype method when the only wrapper comes off', () => {
    const service = new Service()
    const uninstall = installForwardingMethod<'run', Run>(service, 'run', forwardingTagging('only'))
    uninstall()
    expect(Object.hasOwn(service, 'run')).toBe(false)
    expect(service.run).toBe(Service.prototype.run)
  })
})
