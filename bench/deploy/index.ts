// Deploy part: sites deployed to MinIO with @preencode/deploy three times — to an empty bucket
// (full), again unchanged, and after one change — counting objects uploaded and deleted, bytes,
// HTTP requests by operation, and time. Sites (sites.ts): the built playground (one output script
// edited) and a copy of bench/app built with preencode() (one source file edited, the app rebuilt).
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '@preencode/core'
import { hasTool, type Minio, startMinio } from '@preencode/test-utils'
import type { BenchContext } from '../lib/context.ts'
import { importBuilt, type Packages } from '../lib/packages.ts'
import { emptyPart, type PartResult, type Table } from '../lib/report.ts'
import { firstLine, fmtBytes, fmtInt, fmtMs, fmtRatio, ratio } from '../lib/util.ts'
import { benchAppSource, MANIFEST, playgroundSite, playgroundSource, type SiteSource } from './sites.ts'

interface DeployApi {
  deploy: Packages['@preencode/deploy']['deploy']
  s3Target: Packages['@preencode/deploy/s3']['s3Target']
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
  const deployApi = await importBuilt('@preencode/deploy', ['deploy'])
  if ('why' in deployApi) return { ...part, skipped: deployApi.why }
  // The S3 target has its own entry point: it loads the AWS SDK.
  const s3Api = await importBuilt('@preencode/deploy/s3', ['s3Target'])
  if ('why' in s3Api) return { ...part, skipped: s3Api.why }
  const api: DeployApi = { deploy: deployApi.mod.deploy, s3Target: s3Api.mod.s3Target }
  const core = await importBuilt('@preencode/core', ['compress'])
  if ('why' in core) return { ...part, skipped: core.why }
  if (!hasTool('minio')) return { ...part, skipped: 'MinIO is not installed (run scripts/setup.sh --test)' }

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
    minio = await startMinio({ dir: join(dir, 'minio') })
    for (const [i, source] of sites.entries()) {
      const bucket = `bench-${i}`
      try {
        await createBucket(minio, bucket)
        part.tables.push(await deploySite(ctx, api, minio, bucket, source, join(dir, `site-${i}`)))
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
  const manifest = JSON.parse(await readFile(join(site, MANIFEST), 'utf8')) as Manifest
  return new Map(manifest.files.map((f) => [f.path, f.sha256]))
}

async function createBucket(minio: Minio, bucket: string): Promise<void> {
  // Loaded here, not at the top: a run without the deploy part never loads the AWS SDK.
  const { CreateBucketCommand, S3Client } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint: minio.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: minio.credentials,
  })
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }))
  } finally {
    client.destroy()
  }
}
