// nginx (Debian's, with the brotli static module) in the foreground with a prefix of its own:
// `nginx -p <root> -e <root>/logs/error.log -c <root>/nginx.conf -g 'daemon off;'`.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toolPath } from '../process.ts'
import { type ServerCommand, type StartedServer, type StartOptions, startServer } from './launch.ts'

export const NGINX_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'

/** The command that runs nginx on `<root>/nginx.conf` (or `config`), logs and temp files under `root`. */
export function nginxCommand(root: string, config = join(root, 'nginx.conf')): ServerCommand {
  const base = ['-p', root, '-e', join(root, 'logs', 'error.log'), '-c', config]
  return { name: 'nginx', command: toolPath('nginx'), args: [...base, '-g', 'daemon off;'], checkArgs: [...base, '-t'] }
}

export interface NginxMainOptions {
  /** Main-context lines (e.g. `load_module ...;`). @default '' */
  main?: string
  /** http-context lines: the server blocks, maps and includes. */
  http: string
  /** @default 1 */
  workerProcesses?: number | 'auto'
  /** @default 256 */
  workerConnections?: number
  /** @default `<root>/logs/error.log warn` */
  errorLog?: string
  /** @default `<root>/logs/access.log` */
  accessLog?: string
  /** Worker user; nginx started by root otherwise runs its workers as nobody. @default none */
  user?: string
}

/** A whole nginx.conf whose pid, logs and temp paths stay inside `root` (never daemonises: -g sets that). */
export function nginxMainConfig(root: string, options: NginxMainOptions): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (t) => `    ${t}_temp_path ${join(root, 'tmp', t)};`,
  )
  return [
    ...(options.main ? [options.main] : []),
    ...(options.user ? [`user ${options.user};`] : []),
    `worker_processes ${options.workerProcesses ?? 1};`,
    `pid ${join(root, 'nginx.pid')};`,
    `error_log ${options.errorLog ?? `${join(root, 'logs', 'error.log')} warn`};`,
    `events { worker_connections ${options.workerConnections ?? 256}; }`,
    'http {',
    '    include /etc/nginx/mime.types;',
    '    default_type application/octet-stream;',
    `    access_log ${options.accessLog ?? join(root, 'logs', 'access.log')};`,
    ...temp,
    options.http,
    '}',
    '',
  ].join('\n')
}

/**
 * Starts nginx on 127.0.0.1: `config(port, root)` returns the whole nginx.conf (see
 * `nginxMainConfig`), written to `<root>/nginx.conf`.
 */
export async function startNginx(
  config: (port: number, root: string) => string | Promise<string>,
  options: StartOptions = {},
): Promise<StartedServer> {
  return startServer('nginx', options, async (root, port) => {
    await writeFile(join(root, 'nginx.conf'), await config(port, root))
    return nginxCommand(root)
  })
}
