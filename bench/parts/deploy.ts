// Deploy part: the built playground deployed to MinIO with @preencode/deploy three times — to an
// empty bucket (full), again unchanged, and after one output file changed — counting objects,
// bytes, HTTP requests by operation, and time.
import { appendFile, chmod, cp, mkdir, readdir, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { toolPath } from '@preencode/test-utils'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import type { BenchContext } from '../lib/context.ts'
import { startMinio, type Minio } from '../lib/minio.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs, importBuilt, ratio, fmtRatio, runChild } from '../lib/util.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const PLAYGROUND = join(REPO_ROOT, 'playground')
const MANIFEST = '.preencode-manifest.json'
const BUCKET = 'bench'

interface Summary { uploaded: number; uploadedBytes: number; skipped: number; deleted: number; requests: number; durationMs: number }
interface DeployApi {
  deploy: (options: { dir: string; target: unknown; delete?: boolean; concurrency?: number }) => Promise<{ summary: Summary }>
  s3Target: (options: { bucket: string; endpoint: string; credentials: object; onRequest?: (r: { operation: string; stage: string }) => void }) => unknown
}
interface CoreApi { compressDirectory: (dir: string, options: object) => Promise<unknown> }

export async function runDeploy(ctx: BenchContext): Promise<PartResult> {
  const part = emptyPart('deploy', 'Deploy to MinIO')
  part.description = [
    'MinIO runs as a real process on a loopback port with a throw-away data directory. The built playground (and, when',
    'the build part ran, bench/app as built with `preencode()`) is deployed with `@preencode/deploy`\'s S3 target three',
    'times: to an empty bucket, again unchanged, and after one script changed (its variants and the manifest remade by',
    'the engine).',
  ].join(' ')
  const api = await importBuilt<DeployApi>('@preencode/deploy', ['deploy', 's3Target'])
  if ('why' in api) return { ...part, skipped: api.why }
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
  const sites: Array<{ name: string; dir: string; from: string }> = []
  const playground = await playgroundSite(ctx, dir)
  if ('why' in playground) part.notes.push(`playground deploys skipped: ${playground.why}`)
  else sites.push({ name: 'the built playground', ...playground })
  if (ctx.shared.preencodeDist) sites.push({ name: 'bench/app as built with preencode()', dir: ctx.shared.preencodeDist, from: 'the build part\'s output' })
  if (sites.length === 0) return { ...part, skipped: part.notes.join('; ') }

  let minio: Minio | undefined
  try {
    minio = await startMinio(join(dir, 'minio'))
    for (const [i, source] of sites.entries()) {
      const bucket = `bench-${i}`
      try {
        await minio.createBucket(bucket)
        part.tables.push(await deploySite(ctx, api.mod, core.mod, minio, bucket, source, join(dir, `site-${i}`)))
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

async function deploySite(ctx: BenchContext, api: DeployApi, core: CoreApi, minio: Minio, bucket: string, source: { name: string; dir: string; from: string }, site: string): Promise<Table> {
  await cp(source.dir, site, { recursive: true })
  // The manifest must describe this copy (sizes, hashes, mtimes): recompress in place, from a cache.
  const cache = join(site, '..', `${bucket}-cache`)
  await core.compressDirectory(site, { cache })
  const files = (await readdir(site, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name !== MANIFEST)
  const rows: string[][] = []
  const times: Record<string, number> = {}
  const run = async (label: string) => {
    const ops = new Map<string, number>()
    const target = api.s3Target({
      bucket,
      endpoint: minio.endpoint,
      credentials: minio.credentials,
      onRequest: (r) => { if (r.stage === 'start') ops.set(r.operation, (ops.get(r.operation) ?? 0) + 1) },
    })
    ctx.log(`deploy: ${source.name}: ${label}…`)
    const started = performance.now()
    const { summary } = await api.deploy({ dir: site, target, delete: true })
    const wallMs = performance.now() - started
    times[label] = wallMs
    ctx.log(`deploy: ${source.name}: ${label}: ${summary.uploaded} uploaded, ${summary.requests} requests, ${fmtMs(wallMs)}`)
    const byOp = [...ops].sort((a, b) => b[1] - a[1]).map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`).join(', ')
    rows.push([label, fmtInt(summary.uploaded), fmtBytes(summary.uploadedBytes), fmtInt(summary.skipped), fmtInt(summary.deleted), fmtInt(summary.requests), byOp, fmtMs(wallMs)])
  }
  await run('full (empty bucket)')
  await run('unchanged')
  // One output file changes: a script gets a trailing comment; the engine remakes its variants
  // and the manifest (every other file comes from the cache).
  const changed = await scriptToChange(site)
  await appendFile(join(site, changed), `\n/* bench: changed at ${new Date().toISOString()} */\n`)
  await core.compressDirectory(site, { cache })
  await run(`one file changed (${changed})`)
  const bytes = (await Promise.all(files.map((e) => stat(join(e.parentPath, e.name))))).reduce((a, s) => a + s.size, 0)
  return {
    title: `Deploys of ${source.name} to MinIO (${files.length} files with variants, ${fmtBytes(bytes)}; ${source.from})`,
    columns: ['deploy', 'objects uploaded', 'bytes uploaded', 'skipped', 'deleted', 'requests', 'requests by operation', 'time'],
    rows,
    notes: [
      '@preencode/deploy s3Target with `delete: true` and its default concurrency; MinIO on loopback with a throw-away data directory',
      'requests: the S3 client\'s own count; by operation from its onRequest hook; time: wall time of deploy(). The changed file\'s variants are re-made, so it uploads as up to 4 objects',
      `unchanged / full time: ${fmtRatio(ratio(times['unchanged']!, times['full (empty bucket)']!))}`,
    ],
  }
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
async function playgroundSite(ctx: BenchContext, dir: string): Promise<{ dir: string; from: string } | { why: string }> {
  const dist = join(PLAYGROUND, 'dist')
  if (await stat(join(dist, MANIFEST)).then(() => true, () => false)) return { dir: dist, from: 'copied from playground/dist' }
  ctx.log('deploy: playground/dist has no manifest; building the playground…')
  const out = join(dir, 'playground-dist')
  const run = await runChild(process.execPath, [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir'], { cwd: PLAYGROUND, timeoutMs: 10 * 60_000 })
  if (run.code === 0 && (await stat(join(out, MANIFEST)).then(() => true, () => false))) return { dir: out, from: 'built by the bench' }
  return { why: `the playground is not built and \`vite build\` in playground/ failed: ${firstLine(run.stderr || run.stdout || 'no manifest written')}` }
}
