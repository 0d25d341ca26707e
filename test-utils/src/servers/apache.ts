// Apache 2.4 (Debian's, event MPM) in the foreground on a config of its own:
// `apache2 -f <root>/httpd.conf -DFOREGROUND`, pid, mutexes and logs inside the root.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolPath } from '../process.ts'
import { type ServerCommand, type StartedServer, type StartOptions, startServer } from './launch.ts'

export const APACHE_MODULES_DIR = '/usr/lib/apache2/modules'

/** The command that runs Apache on `<root>/httpd.conf` (or `config`). */
export function apacheCommand(root: string, config = join(root, 'httpd.conf')): ServerCommand {
  const base = ['-f', config]
  return { name: 'apache2', command: toolPath('apache2'), args: [...base, '-DFOREGROUND'], checkArgs: [...base, '-t'] }
}

export interface ApacheMainOptions {
  port: number
  /** Modules loaded from APACHE_MODULES_DIR, by short name (`rewrite`, not `mod_rewrite`). */
  modules: string[]
  /** Everything after the server-wide lines: DocumentRoot, <Directory>, includes. */
  body: string
  /** @default 'warn' */
  logLevel?: string
  /** @default 'localhost' */
  serverName?: string
}

/**
 * A whole httpd.conf whose pid, mutexes, runtime dir and error log stay inside `root`; started by
 * root, the children run as www-data.
 */
export function apacheMainConfig(root: string, options: ApacheMainOptions): string {
  return [
    `ServerRoot ${root}`,
    `PidFile ${join(root, 'httpd.pid')}`,
    `ErrorLog ${join(root, 'logs', 'error.log')}`,
    `LogLevel ${options.logLevel ?? 'warn'}`,
    `Mutex file:${join(root, 'tmp')} default`,
    `DefaultRuntimeDir ${join(root, 'tmp')}`,
    `Listen 127.0.0.1:${options.port}`,
    `ServerName ${options.serverName ?? 'localhost'}`,
    ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
    ...[...new Set(options.modules)].map((m) => `LoadModule ${m}_module ${APACHE_MODULES_DIR}/mod_${m}.so`),
    'TypesConfig /etc/mime.types',
    options.body,
    '',
  ].join('\n')
}

/**
 * Starts Apache on 127.0.0.1: `config(port, root)` returns the whole httpd.conf (see
 * `apacheMainConfig`), written to `<root>/httpd.conf`.
 */
export async function startApache(
  config: (port: number, root: string) => string | Promise<string>,
  options: StartOptions = {},
): Promise<StartedServer> {
  return startServer('apache2', options, async (root, port) => {
    await writeFile(join(root, 'httpd.conf'), await config(port, root))
    return apacheCommand(root)
  })
}
