// Starts a runtime's server script (kinds.ts) on a loopback port, or says what is missing on this
// machine: the runtime's binary, or the handler in the built @preencode/server-config.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runtimeBinary, startProcess } from '@preencode/test-utils'
import { RUNTIMES, type RuntimeKind } from './kinds.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

/** Runtime flags: Deno reads the site and listens, nothing else, and never fetches a module. */
const FLAGS: Record<string, string[]> = {
  node: [],
  bun: ['run'],
  deno: [
    'run',
    '--allow-read',
    '--allow-net=127.0.0.1',
    '--allow-env',
    '--node-modules-dir=manual',
    '--no-remote',
    '--no-prompt',
  ],
}

/** Why `kind` cannot run here (a missing binary or handler), or undefined when it can. */
export async function runtimeMissing(kind: RuntimeKind): Promise<string | undefined> {
  const binary = runtimeBinary(RUNTIMES[kind].binary, import.meta.url)
  if ('missing' in binary) return binary.missing
  const config: Record<string, unknown> = await import('@preencode/server-config')
  if (typeof config.createPreencodeHandler !== 'function')
    return 'createPreencodeHandler is not exported by the built @preencode/server-config'
  return undefined
}

/** `kind`'s server script serving `root` on 127.0.0.1:`port`. */
export async function startRuntime(
  kind: RuntimeKind,
  root: string,
  port: number,
): Promise<{ logs(): string; stop(): Promise<void> }> {
  const spec = RUNTIMES[kind]
  const binary = runtimeBinary(spec.binary, import.meta.url)
  if ('missing' in binary) throw new Error(`${kind}: ${binary.missing}`)
  const script = join(HERE, spec.script)
  const proc = await startProcess(kind, binary.path, [...FLAGS[spec.binary]!, script, root, String(port)], {
    port,
    cwd: HERE,
    // No telemetry, update checks or cache outside the run.
    env: { DENO_NO_UPDATE_CHECK: '1', BUN_DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' },
  })
  return {
    logs: () => `--- ${kind}: ${spec.binary} ${spec.script} ---\n${proc.output()}`,
    stop: () => proc.stop(),
  }
}
