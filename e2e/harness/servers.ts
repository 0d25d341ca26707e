// Starts each real server on a free loopback port with a generated config in a throw-away
// config root: apache2 (foreground, own PidFile/ErrorLog/Mutex), nginx (-p prefix, daemon off),
// caddy (admin off, HOME/XDG in the temp root) and a Node http server with the middleware.
// Also used by the Vitest generator tests for the servers' own syntax checks.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readManifest, type Manifest } from '@preencode/core'
import { apacheConfig, caddyConfig, createPreencodeMiddleware, nginxConfig } from '@preencode/server-config'
import { freePort, startProcess, tempDir, toolPath } from '@preencode/test-utils'
import { startCloudflareServer } from './cloudflare.ts'

export type ServerKind =
  | 'apache-htaccess'
  | 'apache-vhost'
  | 'nginx-modules'
  | 'nginx-stock'
  | 'caddy'
  | 'node'
  | 'cloudflare'

export interface RunningServer {
  readonly kind: ServerKind
  readonly url: string
  /** The generated config and the server's output so far, for attaching to a failed test. */
  logs(): string
  stop(): Promise<void>
}

export const NGINX_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'
export const APACHE_MODULES_DIR = '/usr/lib/apache2/modules'
/** On-the-fly compression stays on in every harness config: the generated rules must keep it off their files. */
const ON_THE_FLY_TYPES =
  'text/html text/css text/javascript application/javascript application/json text/plain image/svg+xml'

export interface ServerFiles {
  /** Directory holding the server's config, logs, pid and temp files. */
  dir: string
  /** The generated config (what a user would commit). */
  generated: string
  command: string
  args: string[]
  /** Arguments that only check the configuration and exit. */
  checkArgs: string[]
  env?: NodeJS.ProcessEnv
}

/** Writes the wrapper config around the generated one for `kind` (not `node` nor `cloudflare`). */
export async function writeServerFiles(
  kind: Exclude<ServerKind, 'node' | 'cloudflare'>,
  manifest: Manifest,
  root: string,
  dir: string,
  port: number,
): Promise<ServerFiles> {
  await mkdir(join(dir, 'logs'), { recursive: true })
  await mkdir(join(dir, 'tmp'), { recursive: true })
  if (kind === 'nginx-modules' || kind === 'nginx-stock') {
    const flavor = kind === 'nginx-modules' ? 'modules' : 'stock'
    const generated = nginxConfig(manifest, { flavor, root, listen: `127.0.0.1:${port}`, serverName: 'localhost' })
    await writeFile(join(dir, 'site.conf'), generated)
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (t) => `    ${t}_temp_path ${join(dir, 'tmp', t)};`,
    )
    await writeFile(
      join(dir, 'nginx.conf'),
      [
        ...(flavor === 'modules' ? [`load_module ${NGINX_BROTLI_MODULE};`] : []),
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        'error_log stderr notice;',
        'events { worker_connections 256; }',
        'http {',
        '    include /etc/nginx/mime.types;',
        '    default_type application/octet-stream;',
        `    access_log ${join(dir, 'logs', 'access.log')};`,
        ...temp,
        `    gzip on; gzip_types ${ON_THE_FLY_TYPES};`,
        `    include ${join(dir, 'site.conf')};`,
        '}',
        '',
      ].join('\n'),
    )
    const base = ['-p', dir, '-c', join(dir, 'nginx.conf')]
    return {
      dir,
      generated,
      command: toolPath('nginx'),
      args: [...base, '-g', 'daemon off;'],
      checkArgs: [...base, '-t'],
    }
  }
  if (kind === 'apache-htaccess' || kind === 'apache-vhost') {
    const form = kind === 'apache-htaccess' ? 'htaccess' : 'vhost'
    const generated = apacheConfig(manifest, { form, root })
    const modules = [
      'mpm_event',
      'authz_core',
      'dir',
      'mime',
      'rewrite',
      'headers',
      'env',
      'filter',
      'deflate',
      'setenvif',
      'brotli',
      'alias',
    ]
    const site =
      form === 'htaccess'
        ? [
            `<Directory "${root}">`,
            '    AllowOverride FileInfo',
            '    Options FollowSymLinks',
            '    Require all granted',
            '</Directory>',
            'DirectoryIndex index.html',
          ]
        : [`Include ${join(dir, 'site.conf')}`]
    if (form === 'htaccess') await writeFile(join(root, '.htaccess'), generated)
    else await writeFile(join(dir, 'site.conf'), generated)
    await writeFile(
      join(dir, 'httpd.conf'),
      [
        `ServerRoot ${dir}`,
        `PidFile ${join(dir, 'httpd.pid')}`,
        `ErrorLog ${join(dir, 'logs', 'error.log')}`,
        'LogLevel warn',
        `Mutex file:${join(dir, 'tmp')} default`,
        `DefaultRuntimeDir ${join(dir, 'tmp')}`,
        `Listen 127.0.0.1:${port}`,
        'ServerName localhost',
        ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
        ...modules.map((m) => `LoadModule ${m}_module ${APACHE_MODULES_DIR}/mod_${m}.so`),
        'TypesConfig /etc/mime.types',
        `AddOutputFilterByType DEFLATE ${ON_THE_FLY_TYPES}`,
        `AddOutputFilterByType BROTLI_COMPRESS ${ON_THE_FLY_TYPES}`,
        `DocumentRoot "${root}"`,
        '<Directory />',
        '    AllowOverride None',
        '    Require all denied',
        '</Directory>',
        '<Files ".ht*">',
        '    Require all denied',
        '</Files>',
        ...site,
        '',
      ].join('\n'),
    )
    const base = ['-f', join(dir, 'httpd.conf')]
    return { dir, generated, command: toolPath('apache2'), args: [...base, '-DFOREGROUND'], checkArgs: [...base, '-t'] }
  }
  const generated = caddyConfig(manifest, { root, address: `http://127.0.0.1:${port}` })
  await writeFile(
    join(dir, 'Caddyfile'),
    ['{', '\tadmin off', '\tauto_https off', '\tpersist_config off', '}', generated].join('\n'),
  )
  const env = { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') }
  const base = ['--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile']
  return { dir, generated, command: toolPath('caddy'), args: ['run', ...base], checkArgs: ['validate', ...base], env }
}

/** Runs the server's own configuration check; returns its exit status and output. */
export function checkServerFiles(files: ServerFiles): { status: number | null; output: string } {
  const result = spawnSync(files.command, files.checkArgs, { env: { ...process.env, ...files.env }, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A server started on a port the test chose. */
export type ServingProcess = Pick<RunningServer, 'logs' | 'stop'>

/**
 * The Node middleware serving `root` on `port`. Without `manifest` it reads the one on disk and
 * re-reads it when a deploy replaces it.
 */
export async function startMiddleware(root: string, port: number, manifest?: Manifest): Promise<ServingProcess> {
  let log = ''
  const middleware = createPreencodeMiddleware(root, manifest ? { manifest } : {})
  const server = createServer((req, res) => {
    middleware(req, res, (error) => {
      if (error) log += `${String((error as Error).stack ?? error)}\n`
      res.statusCode = error ? 500 : 404
      res.end()
    })
  })
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done))
  return {
    logs: () => log,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

/**
 * Starts `kind` on a fixed `port` (a browser's dictionaries are per origin, so a redeploy
 * restarts the server on the same one), its config generated into `configDir` from `manifest`
 * (default: the manifest in `root`).
 */
export async function startServerOnPort(
  kind: ServerKind,
  root: string,
  port: number,
  configDir: string,
  manifest?: Manifest,
): Promise<ServingProcess> {
  if (kind === 'node') return startMiddleware(root, port, manifest)
  if (kind === 'cloudflare') return startCloudflareServer(manifest ?? (await readManifest(root)), root, port, configDir)
  await mkdir(configDir, { recursive: true })
  // Workers run as www-data/nobody when started as root: they must be able to read the config root.
  await chmod(configDir, 0o755)
  const files = await writeServerFiles(kind, manifest ?? (await readManifest(root)), root, configDir, port)
  const proc = await startProcess(kind, files.command, files.args, { port, ...(files.env ? { env: files.env } : {}) })
  return { logs: () => `${files.generated}\n${proc.output()}`, stop: () => proc.stop() }
}

/** Starts `kind` serving `root` (a preencode output directory with its manifest). */
export async function startServer(kind: ServerKind, manifest: Manifest, root: string): Promise<RunningServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  if (kind === 'node') return { kind, url, ...(await startMiddleware(root, port, manifest)) }
  if (kind === 'cloudflare') return { kind, url, ...(await startCloudflareServer(manifest, root, port)) }
  const temp = await tempDir(kind)
  // Workers run as www-data/nobody when started as root: they must be able to read the config root.
  await chmod(temp.path, 0o755)
  const files = await writeServerFiles(kind, manifest, root, temp.path, port)
  let proc
  try {
    proc = await startProcess(kind, files.command, files.args, { port, ...(files.env ? { env: files.env } : {}) })
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await readLogs(files.dir)}`)
  }
  const started = proc
  return {
    kind,
    url,
    logs: () =>
      `--- generated config ---\n${files.generated}\n--- ${kind} output ---\n${started.output()}\n${readLogsSync(files.dir)}`,
    async stop() {
      await started.stop()
      await temp.remove()
    },
  }
}

/** The log files the server wrote into its config root (Apache's error log, nginx's access log). */
function readLogsSync(dir: string): string {
  const logs = join(dir, 'logs')
  try {
    return readdirSync(logs)
      .map((name) => `--- ${name} ---\n${readFileSync(join(logs, name), 'utf8')}`)
      .join('\n')
  } catch {
    return ''
  }
}

async function readLogs(dir: string): Promise<string> {
  return readLogsSync(dir)
}
