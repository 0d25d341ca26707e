import { format } from 'node:util'

/**
 * `DEBUG=preencode:*` (or `preencode:cache,preencode:run`) diagnostics on stderr, in the shape
 * of the `debug` package without depending on it. Off by default: the only output a library
 * makes on its own, and only when asked for.
 */
export type DebugLog = ((message: string, ...args: unknown[]) => void) & { readonly enabled: boolean }

function matches(namespace: string, spec: string): boolean {
  let enabled = false
  for (const raw of spec.split(/[\s,]+/)) {
    if (!raw) continue
    const negate = raw.startsWith('-')
    const pattern = negate ? raw.slice(1) : raw
    const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`)
    if (regex.test(namespace)) enabled = !negate
  }
  return enabled
}

export function createDebug(namespace: string, env: Record<string, string | undefined> = process.env): DebugLog {
  const enabled = matches(namespace, env.DEBUG ?? '')
  const log = (message: string, ...args: unknown[]): void => {
    if (enabled) process.stderr.write(`${namespace} ${format(message, ...args)}\n`)
  }
  return Object.assign(log, { enabled })
}
