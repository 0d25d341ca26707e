// Varnish (Debian's varnishd) in the foreground (`-F`) on a VCL of its own: the VCL, and the
// working directory `-n` that varnishstat reads, inside the root; no management port (`-T none`).
// Started by root, varnishd drops its worker to `vcache`, so the root is 0755 and the VCL 0644.
import { execFileSync } from 'node:child_process'
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolPath } from '../process.ts'
import { type ServerCommand, type StartedServer, type StartOptions, startServer } from './launch.ts'

export interface VarnishOptions extends StartOptions {
  /** Runtime parameters, `name=value` (each becomes `-p name=value`). @default [] */
  params?: readonly string[]
  /** Cache storage. @default 'malloc,64m' */
  storage?: string
}

/** A running varnishd and its counters. */
export interface StartedVarnish extends StartedServer {
  /** `varnishstat -1` counters (MAIN.cache_hit...). */
  counters(): Record<string, number>
}

/** The command that runs varnishd on `<root>/site.vcl` at 127.0.0.1:`port`. */
export function varnishCommand(root: string, port: number, options: VarnishOptions = {}): ServerCommand {
  const vcl = join(root, 'site.vcl')
  const base = ['-f', vcl, '-n', join(root, 'n')]
  return {
    name: 'varnishd',
    command: toolPath('varnishd'),
    args: [
      '-F',
      '-a',
      `127.0.0.1:${port}`,
      ...base,
      '-s',
      options.storage ?? 'malloc,64m',
      '-T',
      'none',
      ...(options.params ?? []).flatMap((p) => ['-p', p]),
    ],
    // `-C` compiles the VCL and prints the C; it fails on a VCL error.
    checkArgs: ['-C', ...base],
  }
}

/** Starts varnishd with `vcl` on 127.0.0.1 (a free port unless `options.port`). */
export async function startVarnish(vcl: string, options: VarnishOptions = {}): Promise<StartedVarnish> {
  const server = await startServer('varnishd', options, async (root, port) => {
    const file = join(root, 'site.vcl')
    await writeFile(file, vcl)
    await chmod(file, 0o644)
    return varnishCommand(root, port, options)
  })
  return {
    ...server,
    counters() {
      const text = execFileSync(toolPath('varnishstat'), ['-n', join(server.root.path, 'n'), '-1'], {
        encoding: 'utf8',
      })
      const counters: Record<string, number> = {}
      for (const line of text.split('\n')) {
        const [key, value] = line.trim().split(/\s+/)
        if (key && value && /^\d+$/.test(value)) counters[key] = Number(value)
      }
      return counters
    },
  }
}
