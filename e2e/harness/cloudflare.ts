// The Cloudflare Worker that `preencode config cloudflare` writes, run in workerd on a loopback
// port. Two ways, both offline:
// - Miniflare (the library `wrangler dev` is built on) with the options the generated
//   wrangler.jsonc names: the Worker, its assets directory and binding, run_worker_first, no
//   HTML or 404 handling. Miniflare's entry worker models Cloudflare's front line (it rewrites
//   Accept-Encoding and keeps the visitor's in `request.cf.clientAcceptEncoding`, and re-encodes
//   gzip/br responses the visitor's header ranks lower), as production does. This is what the
//   shared serving suite runs against.
// - `wrangler dev` itself (`startWranglerDev`): the same plus wrangler's bundler and its dev
//   proxy, which runs every text/html response through HTMLRewriter (for live reload) and so
//   sends HTML chunked; used for the bundling/deploy path, not the strict matrix.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import type { Manifest } from '@preencode/core'
import { cloudflareWorkerFiles } from '@preencode/server-config'
import { freePort, startProcess, tempDir } from '@preencode/test-utils'
import { convertV4MiniflareOptions, Miniflare } from 'miniflare'

const require = createRequire(import.meta.url)
/** wrangler's own entry (its package exports only the API). */
export const WRANGLER_BIN = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js')

export interface WorkerServer {
  /** The folder with worker.js, preencode-runtime.js, preencode-site.js and wrangler.jsonc. */
  readonly dir: string
  logs(): string
  stop(): Promise<void>
}

interface WranglerConfig {
  main: string
  compatibility_date: string
  assets: {
    directory: string
    binding: string
    run_worker_first: boolean
    html_handling: 'none'
    not_found_handling: 'none'
  }
}

/**
 * Writes the generated Worker folder for the site in `root` into `dir`, as `preencode config
 * cloudflare <root> --out <dir>` does, but leaves the site's `.assetsignore` out: the suite's
 * sites are shared with the other servers' projects (the Worker never serves the manifest anyway).
 */
export async function writeWorkerFolder(manifest: Manifest, root: string, dir: string): Promise<string> {
  const { files } = cloudflareWorkerFiles(manifest, { root: relative(dir, root) })
  await mkdir(dir, { recursive: true })
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
  return files['wrangler.jsonc']!
}

/** wrangler.jsonc as generated: JSON after `//` comment lines. */
async function readWranglerConfig(dir: string): Promise<WranglerConfig> {
  const text = await readFile(join(dir, 'wrangler.jsonc'), 'utf8')
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n'),
  ) as WranglerConfig
}

/** Miniflare serving the generated Worker folder `dir` on 127.0.0.1:`port`. */
export async function startMiniflare(dir: string, port: number): Promise<WorkerServer> {
  const config = await readWranglerConfig(dir)
  let log = ''
  // Miniflare 5 takes a `workers` list; the single-Worker (v4) form is converted by its own helper.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      // The generated folder is plain ES modules (no bundling needed): the entry first.
      modules: [config.main, 'preencode-runtime.js', 'preencode-site.js'].map((name) => ({
        type: 'ESModule' as const,
        path: join(dir, name),
      })),
      modulesRoot: dir,
      compatibilityDate: config.compatibility_date,
      // No network: the `Request.cf` placeholder instead of fetching one.
      cf: false,
      host: '127.0.0.1',
      port,
      assets: {
        directory: resolve(dir, config.assets.directory),
        binding: config.assets.binding,
        routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
        assetConfig: {
          html_handling: config.assets.html_handling,
          not_found_handling: config.assets.not_found_handling,
        },
      },
      handleStructuredLogs(entry) {
        log += `${JSON.stringify(entry)}\n`
      },
    }),
  )
  await mf.ready
  return { dir, logs: () => log, stop: () => mf.dispose() }
}

/** `wrangler dev` in the generated folder on 127.0.0.1:`port`, offline (no metrics, no `Request.cf` fetch that matters). */
export async function startWranglerDev(dir: string, port: number): Promise<WorkerServer> {
  const home = await tempDir('wrangler-home')
  // Its devtools inspector too, else the fixed 9229 (and two runs at once would collide).
  const inspector = await freePort()
  const proc = await startProcess(
    'wrangler',
    process.execPath,
    [
      WRANGLER_BIN,
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      'warn',
      '--inspector-port',
      String(inspector),
      '--show-interactive-dev-session=false',
    ],
    {
      port,
      cwd: dir,
      env: { WRANGLER_SEND_METRICS: 'false', HOME: home.path, XDG_CONFIG_HOME: join(home.path, 'config'), CI: 'true' },
    },
  )
  return {
    dir,
    logs: () => proc.output(),
    async stop() {
      await proc.stop()
      await home.remove()
    },
  }
}

/**
 * The generated Worker for the site in `root`, in Miniflare on `port`: its folder written into
 * `configDir` (default: a temporary one, removed on stop). For the shared harness (`servers.ts`).
 */
export async function startCloudflareServer(
  manifest: Manifest,
  root: string,
  port: number,
  configDir?: string,
  start: (dir: string, port: number) => Promise<WorkerServer> = startMiniflare,
): Promise<Pick<WorkerServer, 'logs' | 'stop'>> {
  const temp = configDir === undefined ? await tempDir('cloudflare') : undefined
  const dir = configDir ?? temp!.path
  const wrangler = await writeWorkerFolder(manifest, root, dir)
  let server: WorkerServer
  try {
    server = await start(dir, port)
  } catch (error) {
    await temp?.remove()
    throw error
  }
  return {
    logs: () => `--- generated wrangler.jsonc ---\n${wrangler}\n--- workerd output ---\n${server.logs()}`,
    async stop() {
      await server.stop()
      await temp?.remove()
    },
  }
}
