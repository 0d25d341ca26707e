// Deploy part: the built playground deployed to MinIO with @preencode/deploy three times — to an
// empty bucket (full), again unchanged, and after one output file changed — counting objects,
// bytes, HTTP requests by operation, and time.
import { appendFile, chmod, cp, mkdir, readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { toolPath } from '@preencode/test-utils'
import { emptyPart, type PartResult } from '../lib/report.ts'
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
  const site = join(dir, 'site')
  await mkdir(dir, { recursive: true })
  const source = await playgroundSite(ctx, dir)
  if ('why' in source) return { ...part, skipped: source.why }
  await cp(source.dir, site, { recursive: true })
  // The manifest must describe this copy (sizes, hashes, mtimes): recompress in place, from a cache.
  const cache = join(dir, 'cache')
  await core.mod.compressDirectory(site, { cache })
  const fileCount = (await readdir(site, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name !== MANIFEST).length

  let minio: Minio | undefined
  try {
    await chmod(dir, 0o755)
    minio = await startMinio(join(dir, 'minio'))
    await minio.createBucket(BUCKET)
    const rows: string[][] = []
    const times: Record<string, number> = {}
    const run = async (label: string) => {
      const ops = new Map<string, number>()
      const target = api.mod.s3Target({
        bucket: BUCKET,
        endpoint: minio!.endpoint,
        credentials: minio!.credentials,
        onRequest: (r) => { if (r.stage === 'start') ops.set(r.operation, (ops.get(r.operation) ?? 0) + 1) },
      })
      ctx.log(`deploy: ${label}…`)
      const started = performance.now()
      const { summary } = await api.mod.deploy({ dir: site, target, delete: true })
      const wallMs = performance.now() - started
      times[label] = wallMs
      ctx.log(`deploy: ${label}: ${summary.uploaded} uploaded, ${summary.requests} requests, ${fmtMs(wallMs)}`)
      const byOp = [...ops].sort((a, b) => b[1] - a[1]).map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`).join(', ')
      rows.push([label, fmtInt(summary.uploaded), fmtBytes(summary.uploadedBytes), fmtInt(summary.skipped), fmtInt(summary.deleted), fmtInt(summary.requests), byOp, fmtMs(wallMs)])
    }
    await run('full (empty bucket)')
    await run('unchanged')
    // One output file changes: the largest script gets a trailing comment, its variants and the
    // manifest are remade by the engine (the other files come from the cache).
    const changed = await largestScript(site)
    await appendFile(join(site, changed), `\n/* bench: changed at ${new Date().toISOString()} */\n`)
    await core.mod.compressDirectory(site, { cache })
    await run(`one file changed (${changed} + its variants)`)
    part.tables.push({
      title: `Deploys of the built playground to MinIO (${fileCount} files with variants, ${source.from})`,
      columns: ['deploy', 'objects uploaded', 'bytes uploaded', 'skipped', 'deleted', 'requests', 'requests by operation', 'time'],
      rows,
      notes: [
        '@preencode/deploy s3Target with `delete: true`, its default concurrency; MinIO on loopback with a throw-away data directory',
        'requests are those the S3 client sent (its own count, and per operation from its onRequest hook); time is the wall time of deploy()',
        `unchanged / full time: ${fmtRatio(ratio(times['unchanged']!, times['full (empty bucket)']!))}`,
      ],
    })
  } finally {
    await minio?.stop()
  }
  return part
}

async function largestScript(site: string): Promise<string> {
  let best = { path: '', size: -1 }
  for (const entry of await readdir(site, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue
    const path = join(entry.parentPath, entry.name)
    const size = (await stat(path)).size
    if (size > best.size) best = { path, size }
  }
  return best.path.slice(site.length + 1)
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
