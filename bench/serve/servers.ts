// nginx and Apache for the serving benchmark, started by @preencode/test-utils on a free
// loopback port with a throw-away config root. Same tuning for every configuration of one
// server, so that only the compression directives differ; and the servers' CPU time from /proc.
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import {
  apacheMainConfig,
  NGINX_BROTLI_MODULE,
  nginxMainConfig,
  type StartedServer,
  startApache,
  startNginx,
} from '@preencode/test-utils'

export type Server = StartedServer
export const BROTLI_STATIC_MODULE = NGINX_BROTLI_MODULE

export interface NginxParts {
  /** Main context (load_module). */
  main?: string
  /** http context, before the server block. */
  http?: string
  /** Inside the bench's `server` block, after `root` and `index`; `null` for no server block of ours (`http` brings one). */
  server: string | null
}

/** Starts nginx serving `root` with its config root in `dir`; `config` gets the port the server must listen on. */
export async function startBenchNginx(
  dir: string,
  root: string,
  config: (port: number) => NginxParts | Promise<NginxParts>,
): Promise<Server> {
  return startNginx(
    async (port, confRoot) => {
      const parts = await config(port)
      const server =
        parts.server === null
          ? ''
          : `  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    index index.html;
${indent(parts.server, 4)}
  }`
      // pcre_jit for every configuration alike: the generated configs recommend it (their regex
      // locations and maps); the hand-written and on-the-fly ones run no regex, so it costs them nothing.
      return nginxMainConfig(confRoot, {
        main: `${parts.main ?? ''}\npcre_jit on;`,
        ...(process.getuid?.() === 0 ? { user: 'root' } : {}),
        workerProcesses: 'auto',
        workerConnections: 4096,
        accessLog: 'off',
        http: `  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
${indent(parts.http ?? '', 2)}
${server}`,
      })
    },
    { dir },
  )
}

/** Starts Apache 2.4 (event MPM) serving `root` with `AllowOverride All`, so an `.htaccess` applies. */
export async function startBenchApache(
  dir: string,
  root: string,
  config: { server?: string; directory?: string; modules?: string[] },
): Promise<Server> {
  const modules = [
    'mpm_event',
    'authz_core',
    'mime',
    'dir',
    'filter',
    'deflate',
    'rewrite',
    'headers',
    'setenvif',
    'env',
    'alias',
    ...(config.modules ?? []),
  ]
  return startApache(
    (port, confRoot) =>
      apacheMainConfig(confRoot, {
        port,
        modules,
        body: `AddDefaultCharset off
KeepAlive On
MaxKeepAliveRequests 0
EnableSendfile On
DocumentRoot ${root}
DirectoryIndex index.html
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory ${root}>
  Options FollowSymLinks
  AllowOverride All
  Require all granted
${indent(config.directory ?? '', 2)}
</Directory>
${config.server ?? ''}`,
      }),
    { dir },
  )
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux the bench runs on). */
let clockTicks: number | undefined
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      clockTicks = 100
    }
  }
  return clockTicks
}

/** utime + stime (and, with `reaped`, cutime + cstime) of one process, in ticks; 0 once it is gone. */
async function processTicks(pid: number, reaped: boolean): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start at field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const at = (field: number): number => Number(fields[field - 3])
    return at(14) + at(15) + (reaped ? at(16) + at(17) : 0)
  } catch {
    return 0
  }
}

/**
 * CPU seconds (user + system) the server has used so far: its main process, the children it has
 * reaped (an exited Apache child or nginx worker), and its live children (nginx workers, Apache's
 * children). A difference over a wrk run divided by its requests is the server's CPU per request,
 * which other load on the machine changes far less than requests/s.
 */
export async function serverCpuSeconds(server: Server): Promise<number> {
  const pid = server.process.child.pid
  if (pid === undefined) return Number.NaN
  let ticks = await processTicks(pid, true)
  try {
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean)
    for (const child of children) ticks += await processTicks(Number(child), false)
  } catch {
    return Number.NaN
  }
  return ticks / ticksPerSecond()
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text
    .split('\n')
    .map((l) => (l.trim() ? pad + l : l))
    .join('\n')
}
