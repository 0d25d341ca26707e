// nginx and Apache as real processes on a free loopback port with a throw-away config root,
// for the serving benchmark. Same tuning for every configuration of one server, so that only
// the compression directives differ.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { freePort, startProcess, toolPath, type RunningProcess } from '@preencode/test-utils'

export interface Server {
  url: string
  process: RunningProcess
  stop(): Promise<void>
}

export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'
const APACHE_MODULES = '/usr/lib/apache2/modules'

export interface NginxParts {
  /** Main context (load_module). */
  main?: string
  /** http context, before the server block. */
  http?: string
  /** Inside the bench's `server` block, after `root` and `index`; `null` for no server block of ours (`http` brings one). */
  server: string | null
}

/** Starts nginx serving `root`; `config` gets the port the server must listen on. */
export async function startNginx(
  dir: string,
  root: string,
  config: (port: number) => NginxParts | Promise<NginxParts>,
): Promise<Server> {
  await mkdir(join(dir, 'logs'), { recursive: true })
  const port = await freePort()
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
  const conf = `${parts.main ?? ''}
pcre_jit on;
${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')} warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
${indent(parts.http ?? '', 2)}
${server}
}
`
  const confPath = join(dir, 'nginx.conf')
  await writeFile(confPath, conf)
  const proc = await startProcess(
    'nginx',
    toolPath('nginx'),
    ['-p', dir, '-e', join(dir, 'logs', 'error.log'), '-c', confPath],
    { port },
  )
  return { url: `http://127.0.0.1:${port}`, process: proc, stop: () => proc.stop() }
}

/** Starts Apache 2.4 (event MPM) serving `root` with `AllowOverride All`, so an `.htaccess` applies. */
export async function startApache(
  dir: string,
  root: string,
  config: { server?: string; directory?: string; modules?: string[] },
): Promise<Server> {
  await mkdir(join(dir, 'logs'), { recursive: true })
  const port = await freePort()
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
  const conf = `ServerRoot ${dir}
ServerName localhost
Listen 127.0.0.1:${port}
PidFile ${join(dir, 'httpd.pid')}
DefaultRuntimeDir ${dir}
Mutex file:${dir} default
ErrorLog ${join(dir, 'logs', 'error.log')}
LogLevel warn
${[...new Set(modules)].map((m) => `LoadModule ${m}_module ${APACHE_MODULES}/mod_${m}.so`).join('\n')}
${process.getuid?.() === 0 ? 'User www-data\nGroup www-data' : ''}
TypesConfig /etc/mime.types
AddDefaultCharset off
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
${config.server ?? ''}
`
  const confPath = join(dir, 'httpd.conf')
  await writeFile(confPath, conf)
  const proc = await startProcess('apache2', toolPath('apache2'), ['-f', confPath, '-DFOREGROUND'], { port })
  return { url: `http://127.0.0.1:${port}`, process: proc, stop: () => proc.stop() }
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
