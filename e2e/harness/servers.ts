// Starts each real server on a free loopback port with a generated config in a throw-away
// config root: apache2 (foreground, own PidFile/ErrorLog/Mutex), nginx (-p prefix, daemon off),
// caddy (admin off, HOME/XDG in the temp root), and the JavaScript servers: a Node http server
// with the middleware, one with the Fetch handler (fetch-node.ts), `preencode serve`, the Worker
// (cloudflare.ts) and the Fetch handler on other runtimes (runtimes/); over HTTP at 127.0.0.1,
// or over HTTPS + HTTP/2 at TLS_HOST (tls.ts). The include kinds also start the user's API
// server their block proxies to (user-block.ts).
import { createServer } from 'node:http'
import { type Manifest, readManifest } from '@preencode/core'
import { type ConventionOptions, createPreencodeMiddleware } from '@preencode/server-config'
import { freePort, launchServer, type ServerRoot, serverRoot, startPreencodeServe } from '@preencode/test-utils'
import { startCloudflareServer, startWranglerDev } from './cloudflare.ts'
import { startFetchHandler } from './fetch-node.ts'
import { listenOnLoopback, type ServingProcess } from './node-server.ts'
import { isRuntimeKind } from './runtimes/kinds.ts'
import { startRuntime } from './runtimes/start.ts'
import {
  type CodeKind,
  type ConfiguredKind,
  INCLUDE_KINDS,
  type ServeOptions,
  type ServerKind,
  writeServerFiles,
} from './server-files.ts'
import { originOf, tlsFiles } from './tls.ts'
import { startApiServer } from './user-block.ts'

/** A server started on a port the test chose. */
export type { ServingProcess } from './node-server.ts'

export {
  type ConfiguredKind,
  checkServerFiles,
  type ServerKind,
  writeServerFiles,
} from './server-files.ts'

export interface RunningServer {
  readonly kind: ServerKind
  /** `http://127.0.0.1:<port>` or `https://www.preencode.test:<port>`. */
  readonly url: string
  /** The generated config and the server's output so far, for attaching to a failed test. */
  logs(): string
  stop(): Promise<void>
}

/** How to serve: over HTTPS + HTTP/2 (the include kinds always are), with HTTP/3 (Caddy). */
export interface StartOptions {
  tls?: boolean
  h3?: boolean
  /** The static-host conventions (`spa: true`), for the generated config or preencode's own server. */
  conventions?: ConventionOptions
}

/**
 * The Node middleware serving `root` on `port`. Without `manifest` it reads the one on disk and
 * re-reads it when a deploy replaces it.
 */
async function startMiddleware(
  root: string,
  port: number,
  manifest?: Manifest,
  conventions: ConventionOptions = {},
): Promise<ServingProcess> {
  let log = ''
  const middleware = createPreencodeMiddleware(root, { ...conventions, ...(manifest ? { manifest } : {}) })
  const server = createServer((req, res) => {
    middleware(req, res, (error) => {
      if (error) log += `${String((error as Error).stack ?? error)}\n`
      res.statusCode = error ? 500 : 404
      res.end()
    })
  })
  return listenOnLoopback(server, port, () => log)
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
  transport: StartOptions = {},
): Promise<ServingProcess> {
  if (isCodeKind(kind)) return startCode(kind, root, port, configDir, manifest, transport)
  // A root the caller named (kept on stop), 0755: workers started by root run as www-data/nobody.
  const config = await serverRoot(kind, configDir)
  return startConfigured(kind, manifest ?? (await readManifest(root)), root, config, port, transport)
}

const CONFIGURED = new Set<string>([
  'apache-htaccess',
  'apache-vhost',
  'apache-include',
  'nginx-modules',
  'nginx-stock',
  'nginx-include',
  'nginx-include-modules',
  'caddy',
  'caddy-include',
] satisfies ConfiguredKind[])

function isCodeKind(kind: ServerKind): kind is CodeKind {
  return !CONFIGURED.has(kind)
}

/** preencode's own code serving `root`: over HTTPS + HTTP/2 only `preencode serve` (given a certificate). */
async function startCode(
  kind: CodeKind,
  root: string,
  port: number,
  configDir: string,
  manifest: Manifest | undefined,
  transport: StartOptions,
): Promise<ServingProcess> {
  if (kind === 'preencode-serve') {
    // The binary reads the manifest on disk, as users run it: a given one must be that one.
    const tls = transport.tls ? ['--cert', tlsFiles().cert, '--key', tlsFiles().key] : []
    const flags = transport.conventions?.spa ? ['--spa'] : []
    const served = await startPreencodeServe(root, [...tls, ...flags], port)
    return { logs: served.logs, stop: async () => void (await served.stop()) }
  }
  if (transport.tls) throw new Error(`${kind} runs over HTTP only in the harness`)
  if (kind === 'node') return startMiddleware(root, port, manifest, transport.conventions)
  if (kind === 'fetch-node') return startFetchHandler(root, port, manifest, transport.conventions)
  if (isRuntimeKind(kind)) return startRuntime(kind, root, port)
  const start = kind === 'cloudflare-dev' ? startWranglerDev : undefined
  return startCloudflareServer(manifest ?? (await readManifest(root)), root, port, configDir || undefined, start)
}

/**
 * Starts a configured server (and the include kinds' API server) in `config` with test-utils'
 * one start-up; stopping it removes `config` if it is a temp dir, as a failed start does.
 */
async function startConfigured(
  kind: ConfiguredKind,
  manifest: Manifest,
  root: string,
  config: ServerRoot,
  port: number,
  transport: StartOptions,
): Promise<ServingProcess> {
  const include = INCLUDE_KINDS.includes(kind)
  const serve: ServeOptions = { port }
  // The user's block has its own 404 page (user-block.ts): the site's is left out.
  serve.conventions = { ...transport.conventions, ...(include ? { notFoundPage: false } : {}) }
  if (transport.tls || include) serve.tls = tlsFiles()
  if (transport.h3) serve.h3 = true
  const api = include ? await startApiServer((serve.apiPort = await freePort())) : undefined
  try {
    const files = await writeServerFiles(kind, manifest, root, config.path, serve)
    const server = await launchServer(files, { port, root: config })
    return {
      logs: () => `--- generated config ---\n${files.generated}\n${server.logs()}`,
      async stop() {
        await server.stop()
        await api?.stop()
      },
    }
  } catch (error) {
    await api?.stop()
    await config.remove()
    throw error
  }
}

/** Starts `kind` serving `root` (a preencode output directory with its manifest). */
export async function startServer(
  kind: ServerKind,
  manifest: Manifest,
  root: string,
  transport: StartOptions = {},
): Promise<RunningServer> {
  const port = await freePort()
  const url = originOf(port, Boolean(transport.tls) || INCLUDE_KINDS.includes(kind))
  if (isCodeKind(kind)) return { kind, url, ...(await startServerOnPort(kind, root, port, '', manifest, transport)) }
  // A temp root, 0755 (workers run as www-data/nobody), removed on stop.
  const config = await serverRoot(kind)
  return { kind, url, ...(await startConfigured(kind, manifest, root, config, port, transport)) }
}
