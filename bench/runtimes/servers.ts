// The runtimes the bench serves on, each with the preencode handler and with its own static
// handler: one script per runtime (servers/), started in `preencode` or `own` mode on a loopback
// port; Bun and Deno come from npm (bench/package.json, pinned).
import { join } from 'node:path'
import { freePort, type RuntimeBinary, runtimeBinary, startProcess } from '@preencode/test-utils'

export interface RuntimePair {
  id: string
  /** The runtime or framework, as the tables name it. */
  label: string
  /** Its own static handler, as the tables name it. */
  own: string
  binary: RuntimeBinary
  script: string
  /**
   * Its own static handler sending the same stored `.br` the preencode handler sends (mode
   * `stored`), as the tables name it: the same bytes, so requests/s compare the sending alone.
   */
  stored?: string
}

export const RUNTIME_PAIRS: readonly RuntimePair[] = [
  {
    id: 'bun',
    label: 'Bun.serve',
    own: 'Bun.file',
    binary: 'bun',
    script: 'bun.mjs',
    stored: 'Bun.file of the stored .br',
  },
  { id: 'deno', label: 'Deno.serve', own: "Hono's serveStatic (hono/deno)", binary: 'deno', script: 'deno.mjs' },
  { id: 'fastify', label: 'Fastify (Node)', own: '@fastify/static', binary: 'node', script: 'fastify.mjs' },
  { id: 'node', label: 'node:http', own: 'sirv', binary: 'node', script: 'node.mjs' },
]

/** The preencode handler, the runtime's own handler on the originals, or on the stored `.br`. */
export type Mode = 'preencode' | 'own' | 'stored'

/** The modes `pair` is measured in. */
export function modesOf(pair: RuntimePair): Mode[] {
  return pair.stored ? ['preencode', 'own', 'stored'] : ['preencode', 'own']
}

export interface RunningRuntime {
  url: string
  stop(): Promise<unknown>
  logs(): string
}

const FLAGS: Record<RuntimeBinary, string[]> = {
  node: [],
  bun: ['run'],
  deno: ['run', '--allow-read', '--allow-net=127.0.0.1', '--allow-env', '--node-modules-dir=manual', '--no-remote'],
}

/** Why `pair` cannot run on this machine, or undefined. */
export function pairMissing(pair: RuntimePair): string | undefined {
  const binary = runtimeBinary(pair.binary, import.meta.url)
  return 'missing' in binary ? binary.missing : undefined
}

/** `pair`'s script serving `root` with the preencode handler or its own. */
export async function startRuntime(pair: RuntimePair, mode: Mode, root: string): Promise<RunningRuntime> {
  const binary = runtimeBinary(pair.binary, import.meta.url)
  if ('missing' in binary) throw new Error(binary.missing)
  const port = await freePort()
  const dir = join(import.meta.dirname, 'servers')
  const proc = await startProcess(
    `${pair.id}-${mode}`,
    binary.path,
    [...FLAGS[pair.binary], join(dir, pair.script), mode, root, String(port)],
    { port, cwd: dir, env: { NODE_ENV: 'production', DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' } },
  )
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.stop(), logs: () => proc.output() }
}
