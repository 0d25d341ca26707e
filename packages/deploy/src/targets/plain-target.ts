// Targets are classes inside; what a factory returns is a plain object of bound methods, as the
// object literals were, so `{ ...target }` (a custom target built on one) keeps every method.
import type { DeployTarget } from '../plan/target.js'

const METHODS = [
  'begin',
  'readRemote',
  'previousVersions',
  'uploadPhase',
  'writeManifest',
  'commit',
  'storedObjects',
  'writeState',
  'deleteKeys',
  'requestCount',
  'close',
] as const satisfies readonly (keyof DeployTarget)[]

/** `target`'s interface methods, bound to it, on a plain object (an absent method stays absent). */
export function plainTarget(target: DeployTarget): DeployTarget {
  const plain: Record<string, unknown> = { kind: target.kind, description: target.description }
  for (const name of METHODS) {
    const method = target[name]
    if (typeof method === 'function') plain[name] = method.bind(target)
  }
  return plain as unknown as DeployTarget
}
