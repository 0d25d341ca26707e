// Deploy part: sites deployed to MinIO with @preencode/deploy three times — to an empty bucket
// (full), again unchanged, and after one change — counting objects uploaded and deleted, bytes,
// HTTP requests by operation, and time. Sites: the built playground (one output script edited)
// and a copy of bench/app built with preencode() (one source file edited, the app rebuilt).
import { appendFile, chmod, cp, mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { toolPath } from '@preencode/test-utils'
import type { BuildOutcome, BuildSpec } from './build-spec.ts'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
import { startMinio, type Minio } from '../lib/minio.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs, importBuilt, ratio, fmtRatio, runChild } from '../lib/util.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const PLAYGROUND = join(REPO_ROOT, 'playground')
const APP_ROOT = join(REPO_ROOT, 'bench', 'app')
const MANIFEST = '.preencode-manifest.json'

interface Summary {
  uploaded: number
  uploadedBytes: number
  skipped: number
  deleted: number
  requests: number
  durationMs: number
}
interface DeployApi {
  deploy: (options: {
    dir: string
    target: unknown
    delete?: boolean
    concurrency?: number
  }) => Promise<{ summary: Summary }>
  s3Target: (options: {
    bucket: string
    endpoint: string
    credentials: object
    onRequest?: (r: { operation: string; stage: string }) => void
  }) => unknown
}
interface CoreApi {
  compressDirectory: (dir: string, options: object) => Promise<unknown>
}

export async function runDeploy(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('deploy', 'Deploy to MinIO')
  part.description = [
    'MinIO runs as a real process on a loopback port with a throw-away data directory. Two sites are deployed with',
    "`@preencode/deploy`'s S3 target three times each (to an empty bucket, again unchanged, and after one change):",
    'the built playground, whose change is one output script edited in place and recompressed, and a copy of bench/app',
    'built with `preencode()`, whose change is one source file edited and the app rebuilt, so content-hashed names',
    'move and stale objects are deleted.',
  ].join(' ')
  const deployApi = await importBuilt<Pick<DeployApi, 'deploy'>>('@preencode/deploy', ['deploy'])
  if ('why' in deployApi) return { ...part, skipped: deployApi.why }
  // The S3 target has its own entry point: it loads the AWS SDK.
  const s3Api = await importBuilt<Pick<DeployApi, 's3Target'>>('@preencode/deploy/s3', ['s3Target'])
  if ('why' in s3Api) return { ...part, skipped: s3Api.why }
  const api = { mod: { ...deployApi.mod, ...s3Api.mod } }
  const core = await importBuilt<CoreApi>('@preencode/core', ['compressDirectory'])
  if ('why' in core) return { ...part, skipped: core.why }
  try {
    toolPath('minio')
  } catch (error) {
    return { ...part, skipped: `MinIO is not installed (${firstLine(error)})` }
  }

  const dir = join(ctx.tmp, 'deploy')
  await mkdir(dir, { recursive: true })
  await chmod(dir, 0o755)
  const sites: SiteSource[] = []
  const playground = await playgroundSite(ctx, dir)
  if ('why' in playground) part.notes.push(`playground deploys skipped: ${playground.why}`)
  else sites.push(playgroundSource(core.mod, playground, join(dir, 'playground-cache')))
  const vite = await importBuilt('@preencode/vite', ['preencode'])
  if ('why' in vite) part.notes.push(`bench/app deploys skipped: ${vite.why}`)
  else sites.push(benchAppSource(ctx, dir))
  if (sites.length === 0) return { ...part, skipped: part.notes.join('; ') }

  let minio: Minio | undefined
  try {
    minio = await startMinio(join(dir, 'minio'))
    for (const [i, source] of sites.entries()) {
      const bucket = `bench-${i}`
      try {
        await minio.createBucket(bucket)
        part.tables.push(await deploySite(ctx, api.mod, minio, bucket, source, join(dir, `site-${i}`)))
      } catch (error) {
        ctx.log(`deploy: ${source.name} failed: ${(error as Error).stack ?? error}`)
        part.notes.push(`deploys of ${source.name} failed: ${firstLine(error)}`)
      }
    }
  } finally {
    await minio?.stop()
  }
  return part
}

/** A site to deploy: how its output is made, and how one change to it is made. */
interface SiteSource {
  name: string
  from: string
  /** Writes the site (files, variants, manifest) into `site`. */
  prepare(site: string): Promise<void>
  /** Changes one thing and brings `site` up to date; returns what changed, for the table. */
  change(site: string): Promise<string>
}

/** The built playground; the change is one output script edited in place, then recompressed. */
function playgroundSource(core: CoreApi, playground: { dir: string; from: string }, cache: string): SiteSource {
  return {
    name: 'the built playground',
    from: playground.from,
    async prepare(site) {
      await cp(playground.dir, site, { recursive: true })
      // The manifest must describe this copy (sizes, hashes, mtimes): recompress in place.
      await core.compressDirectory(site, { cache })
    },
    async change(site) {
      const changed = await scriptToChange(site)
      await appendFile(join(site, changed), `\n/* bench: changed at ${new Date().toISOString()} */\n`)
      await core.compressDirectory(site, { cache })
      return `output ${changed} edited (same name), variants remade`
    },
  }
}

/**
 * bench/app built with preencode(); the change is one source file edited and the app rebuilt,
 * so content hashes move: the changed chunk, the chunks and HTML that name it, and deletions.
 */
function benchAppSource(ctx: BenchContext, dir: string): SiteSource {
  const app = join(dir, 'app')
  const cache = ctx.shared.preencodeCache ?? join(dir, 'app-cache')
  const entryNames = ctx.quick
    ? { scene: 'scene.html' }
    : { index: 'index.html', charts: 'charts.html', scene: 'scene.html' }
  const source = ctx.quick ? 'src/scene.ts' : 'src/chart-render.ts'
  const build = async (site: string) => {
    const entries = Object.fromEntries(Object.entries(entryNames).map(([k, v]) => [k, join(app, v)]))
    const spec: BuildSpec = {
      tool: 'preencode',
      appRoot: app,
      outDir: site,
      cacheDir: cache,
      entries,
      resultFile: join(dir, 'app-build.json'),
    }
    const child = await runChild(
      process.execPath,
      [join(import.meta.dirname, 'build-child.ts'), JSON.stringify(spec)],
      { timeoutMs: 15 * 60_000 },
    )
    const outcome = JSON.parse(
      await readFile(spec.resultFile, 'utf8').catch(
        () => `{"error":${JSON.stringify(`build child exited ${child.code}: ${child.stderr.slice(-1000)}`)}}`,
      ),
    ) as BuildOutcome
    if (outcome.error) throw new Error(`bench/app build failed: ${outcome.error}`)
  }
  return {
    name: 'bench/app built with preencode()',
    from: `a copy of bench/app built by the bench${ctx.shared.preencodeCache ? " with the build part's warm cache" : ' (cold cache)'}`,
    async prepare(site) {
      await cp(APP_ROOT, app, { recursive: true })
      // Dependencies resolve from the copy as from bench/app itself.
      await symlink(join(APP_ROOT, '..', 'node_modules'), join(app, 'node_modules'), 'dir')
      await build(site)
    },
    async change(site) {
      await appendFile(join(app, source), `\nconsole.info('bench: rebuilt at ${new Date().toISOString()}')\n`)
      await build(site)
      return `source ${source} edited, app rebuilt`
    },
  }
}

async function deploySite(
  ctx: BenchContext,
  api: DeployApi,
  minio: Minio,
  bucket: string,
  source: SiteSource,
  site: string,
): Promise<Table> {
  ctx.log(`deploy: preparing ${source.name}…`)
  await source.prepare(site)
  const files = (await readdir(site, { recursive: true, withFileTypes: true })).filter(
    (e) => e.isFile() && e.name !== MANIFEST,
  )
  const bytes = (await Promise.all(files.map((e) => stat(join(e.parentPath, e.name))))).reduce((a, s) => a + s.size, 0)
  const rows: string[][] = []
  const times: Record<string, number> = {}
  const run = async (label: string) => {
    const ops = new Map<string, number>()
    const target = api.s3Target({
      bucket,
      endpoint: minio.endpoint,
      credentials: minio.credentials,
      onRequest: (r) => {
        if (r.stage === 'start') ops.set(r.operation, (ops.get(r.operation) ?? 0) + 1)
      },
    })
    ctx.log(`deploy: ${source.name}: ${label}…`)
    const started = performance.now()
    const { summary } = await api.deploy({ dir: site, target, delete: true })
    const wallMs = performance.now() - started
    times[label] = wallMs
    ctx.log(
      `deploy: ${source.name}: ${label}: ${summary.uploaded} uploaded, ${summary.deleted} deleted, ${summary.requests} requests, ${fmtMs(wallMs)}`,
    )
    const byOp = [...ops]
      .sort((a, b) => b[1] - a[1])
      .map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`)
      .join(', ')
    rows.push([
      label,
      fmtInt(summary.uploaded),
      fmtBytes(summary.uploadedBytes),
      fmtInt(summary.skipped),
      fmtInt(summary.deleted),
      fmtInt(summary.requests),
      byOp,
      fmtMs(wallMs),
    ])
  }
  await run('full (empty bucket)')
  await run('unchanged')
  const before = await originals(site)
  const changed = await source.change(site)
  const after = await originals(site)
  const moved = [...after].filter(([path, sha]) => before.get(path) !== sha).length
  const gone = [...before.keys()].filter((path) => !after.has(path)).length
  await run(`one change: ${changed}`)
  return {
    title: `Deploys of ${source.name} to MinIO (${files.length} files with variants, ${fmtBytes(bytes)}; ${source.from})`,
    columns: [
      'deploy',
      'objects uploaded',
      'bytes uploaded',
      'skipped',
      'deleted',
      'requests',
      'requests by operation',
      'time',
    ],
    rows,
    notes: [
      '@preencode/deploy s3Target with `delete: true` and its default concurrency; MinIO on loopback with a throw-away data directory',
      "requests: the S3 client's own count; by operation from its onRequest hook (PutObject includes the deploy-state object); time: wall time of deploy()",
      `after the change the manifest lists ${moved} new or changed original(s) and ${gone} removed one(s) (each with up to three variants): what a correct deploy must upload and delete`,
      `unchanged / full time: ${fmtRatio(ratio(times.unchanged!, times['full (empty bucket)']!))}`,
    ],
  }
}

/** path -> sha256 of every original in the site's manifest. */
async function originals(site: string): Promise<Map<string, string>> {
  const manifest = JSON.parse(await readFile(join(site, MANIFEST), 'utf8')) as {
    files: Array<{ path: string; sha256: string }>
  }
  return new Map(manifest.files.map((f) => [f.path, f.sha256]))
}

/** The largest script of at most 512 KiB (a typical app chunk, not a multi-MB worker), else the smallest. */
async function scriptToChange(site: string): Promise<string> {
  const scripts: Array<{ path: string; size: number }> = []
  for (const entry of await readdir(site, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue
    const path = join(entry.parentPath, entry.name)
    scripts.push({ path, size: (await stat(path)).size })
  }
  if (scripts.length === 0) throw new Error(`no script in ${site} to change`)
  scripts.sort((a, b) => b.size - a.size)
  const pick = scripts.find((s) => s.size <= 512 * 1024) ?? scripts[scripts.length - 1]!
  return relative(site, pick.path).split(sep).join('/')
}

/** playground/dist if it was built with the plugin (it has a manifest), else a fresh build. */
async function playgroundSite(
  ctx: BenchContext,
  dir: string,
): Promise<{ dir: string; from: string } | { why: string }> {
  const dist = join(PLAYGROUND, 'dist')
  if (
    await stat(join(dist, MANIFEST)).then(
      () => true,
      () => false,
    )
  )
    return { dir: dist, from: 'copied from playground/dist' }
  ctx.log('deploy: playground/dist has no manifest; building the playground…')
  const out = join(dir, 'playground-dist')
  const run = await runChild(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir'],
    { cwd: PLAYGROUND, timeoutMs: 10 * 60_000 },
  )
  if (
    run.code === 0 &&
    (await stat(join(out, MANIFEST)).then(
      () => true,
      () => false,
    ))
  )
    return { dir: out, from: 'built by the bench' }
  return {
    why: `the playground is not built and \`vite build\` in playground/ failed: ${firstLine(run.stderr || run.stdout || 'no manifest written')}`,
  }
}
