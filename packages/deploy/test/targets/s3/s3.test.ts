// The S3 target against MinIO as a real process: metadata as stored, change detection, order
// of requests, failures and convergence.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3'
import { readManifest } from '@preencode/core'
import {
  DEPLOY_STATE_FILENAME,
  type DeploySummary,
  deploy,
  type S3RequestRecord,
  type S3TargetOptions,
} from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { freePort, REPO_ROOT, runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteObjects } from '../../../src/plan/plan.js'
// The client's test seam (not an option): whether each request body went out as a stream.
import { BODY_PROBE } from '../../../src/targets/s3/client.js'
import {
  createBucket,
  credentials,
  fixtureFiles,
  getObject,
  listKeys,
  MINIO_SECRET,
  type Minio,
  makeSite,
  recompress,
  removeFile,
  startMinio,
  writeSite,
} from '../../helpers.js'

const BUCKET = 'site'
const MiB = 1024 * 1024
let minio: Minio
let site: Awaited<ReturnType<typeof makeSite>>
const numbers: Record<string, DeploySummary> = {}
/** Key -> whether the last request with a body for it streamed that body. */
const streamedBodies = new Map<string | undefined, boolean>()

function target(records: S3RequestRecord[] = [], extra: Partial<S3TargetOptions> = {}) {
  // The probe is not one of S3TargetOptions: the options are typed with it added.
  const options: S3TargetOptions & { [BODY_PROBE]: (key: string | undefined, streamed: boolean) => void } = {
    [BODY_PROBE]: (key, streamed) => streamedBodies.set(key, streamed),
    bucket: BUCKET,
    prefix: 'www',
    endpoint: minio.endpoint,
    credentials,
    multipartThreshold: 5 * MiB,
    partSize: 5 * MiB,
    retry: { retries: 2, baseDelayMs: 50, maxDelayMs: 200 },
    onRequest: (r) => records.push(r),
    ...extra,
  }
  return s3Target(options)
}

const WRITES = new Set([
  'PutObjectCommand',
  'CreateMultipartUploadCommand',
  'UploadPartCommand',
  'CompleteMultipartUploadCommand',
])

/** Asserts every HTML write starts after every asset write ended, and deletions come last. */
function assertSafeOrder(records: S3RequestRecord[]): void {
  const isEntry = (key: string | undefined) => key !== undefined && /\.html(\.(br|gz|zst))?$/.test(key)
  const writes = records
    .map((r, i) => ({ ...r, i }))
    .filter((r) => WRITES.has(r.operation) && !r.key?.endsWith(DEPLOY_STATE_FILENAME))
  const lastAssetEnd = Math.max(-1, ...writes.filter((r) => !isEntry(r.key) && r.stage === 'end').map((r) => r.i))
  const firstHtmlStart = Math.min(
    Infinity,
    ...writes.filter((r) => isEntry(r.key) && r.stage === 'start').map((r) => r.i),
  )
  expect(firstHtmlStart).toBeGreaterThan(lastAssetEnd)
  const deletes = records.map((r, i) => ({ ...r, i })).filter((r) => r.operation === 'DeleteObjectsCommand')
  const lastWrite = Math.max(-1, ...writes.map((r) => r.i))
  for (const d of deletes) expect(d.i).toBeGreaterThan(lastWrite)
}

async function assertBucketMatchesSite(prefix: string, root: string): Promise<void> {
  const manifest = await readManifest(root)
  const objects = siteObjects(manifest)
  const keys = await listKeys(minio, BUCKET, prefix)
  expect(keys.filter((k) => k !== DEPLOY_STATE_FILENAME)).toEqual(objects.map((o) => o.key))
  for (const object of objects) {
    const stored = await getObject(minio, BUCKET, prefix + object.key)
    expect(stored.body.equals(await readFile(join(root, object.key))), object.key).toBe(true)
    expect(stored.contentType, object.key).toBe(object.contentType)
    expect(stored.contentEncoding, object.key).toBe(object.contentEncoding)
    expect(stored.cacheControl, object.key).toBe(object.cacheControl)
    expect(stored.metadata['preencode-sha256'], object.key).toBe(object.sha256)
  }
}

beforeAll(async () => {
  minio = await startMinio()
  await createBucket(minio, BUCKET)
  site = await makeSite(1)
})

afterAll(async () => {
  await minio?.remove()
  await site?.remove()
  if (Object.keys(numbers).length) process.stderr.write(`deploy numbers (MinIO): ${JSON.stringify(numbers)}\n`)
})

describe('s3Target against MinIO', () => {
  it('dry-run plans every object and writes nothing', async () => {
    const records: S3RequestRecord[] = []
    const { plan, summary } = await deploy({ dir: site.root, target: target(records), dryRun: true })
    expect(summary.dryRun).toBe(true)
    expect(summary.uploaded).toBe(siteObjects(site.manifest).length)
    expect(plan.phases.map((p) => p.phase)).toEqual(['immutable', 'asset', 'entry'])
    expect(records.some((r) => WRITES.has(r.operation))).toBe(false)
    expect(await listKeys(minio, BUCKET, 'www/')).toEqual([])
  })

  it('a full deploy stores every object with its bytes and headers, HTML last', async () => {
    const records: S3RequestRecord[] = []
    const { summary } = await deploy({ dir: site.root, target: target(records), delete: true })
    numbers.full = summary
    const objects = siteObjects(site.manifest)
    expect(summary.uploaded).toBe(objects.length)
    expect(summary.skipped).toBe(0)
    assertSafeOrder(records)
    await assertBucketMatchesSite('www/', site.root)
    // Stored Content-Encoding is exactly the token: no `aws-chunked` from streamed bodies.
    const encodings = new Set(objects.map((o) => o.contentEncoding).filter(Boolean))
    expect([...encodings].sort()).toEqual(['br', 'gzip', 'zstd'])
    const archive = await getObject(minio, BUCKET, 'www/downloads/data.tar.gz')
    expect(archive.contentType).toBe('application/gzip')
    expect(archive.contentEncoding).toBeUndefined()
    // As sent: streamed bodies, Content-Encoding exactly the token (no aws-chunked framing).
    const puts = records.filter(
      (r) => r.operation === 'PutObjectCommand' && r.stage === 'start' && !r.key?.endsWith(DEPLOY_STATE_FILENAME),
    )
    expect(puts.length).toBeGreaterThan(0)
    for (const put of puts) {
      expect(streamedBodies.get(put.key), put.key).toBe(true)
      const object = objects.find((o) => `www/${o.key}` === put.key)!
      expect(put.contentEncoding, put.key).toBe(object.contentEncoding)
    }
    // The large file went up in parts.
    expect(
      records.filter(
        (r) => r.operation === 'CompleteMultipartUploadCommand' && r.key === 'www/data/big.bin' && r.stage === 'end',
      ),
    ).toHaveLength(1)
    expect(await listKeys(minio, BUCKET, 'www/')).not.toContain('.preencode-manifest.json')
  })

  it('a second deploy of the unchanged site uploads nothing, in two requests', async () => {
    const records: S3RequestRecord[] = []
    const { summary } = await deploy({ dir: site.root, target: target(records), delete: true })
    numbers.unchanged = summary
    expect(summary.uploaded).toBe(0)
    expect(summary.deleted).toBe(0)
    expect(summary.skipped).toBe(siteObjects(site.manifest).length)
    expect(records.filter((r) => r.stage === 'start').map((r) => r.operation)).toEqual([
      'ListObjectsV2Command',
      'GetObjectCommand',
    ])
  })

  it('without the state object, hashes come from object metadata (HEAD) and still nothing is uploaded', async () => {
    const { summary } = await deploy({ dir: site.root, target: target([], { prefix: 'www' }), delete: false })
    expect(summary.uploaded).toBe(0)
    // A fresh target over the same prefix with the state removed:
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3')
    await minio.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `www/${DEPLOY_STATE_FILENAME}` }))
    const records: S3RequestRecord[] = []
    const again = await deploy({ dir: site.root, target: target(records) })
    expect(again.summary.uploaded).toBe(0)
    expect(records.filter((r) => r.operation === 'HeadObjectCommand' && r.stage === 'start').length).toBe(
      siteObjects(site.manifest).length,
    )
    // The state is written again so the next deploy needs no HEADs.
    expect(await listKeys(minio, BUCKET, 'www/')).toContain(DEPLOY_STATE_FILENAME)
  })

  it('changing one file uploads exactly its outputs and the HTML naming it; the old file is deleted after the uploads', async () => {
    const before = siteObjects(await readManifest(site.root))
    await removeFile(site.root, 'assets/app-Ab1Cd34E.js')
    const v2 = fixtureFiles(2)
    await writeSite(site.root, {
      'assets/app-Ab2Cd34E.js': v2['assets/app-Ab2Cd34E.js']!,
      'index.html': v2['index.html']!,
      'about/index.html': v2['about/index.html']!,
    })
    const manifest = await recompress(site.root)
    const after = siteObjects(manifest)
    const records: S3RequestRecord[] = []
    const { summary, plan } = await deploy({ dir: site.root, target: target(records), delete: true })
    numbers.oneChanged = summary
    const uploaded = plan.phases.flatMap((p) => p.uploads.map((u) => u.key)).sort()
    expect(uploaded.every((k) => k.startsWith('assets/app-Ab2Cd34E.js') || /index\.html/.test(k))).toBe(true)
    expect(uploaded.some((k) => k === 'assets/app-Ab2Cd34E.js')).toBe(true)
    expect(uploaded.some((k) => k === 'index.html')).toBe(true)
    expect(uploaded.some((k) => k === 'about/index.html')).toBe(true)
    const beforeByKey = new Map(before.map((o) => [o.key, o.sha256]))
    expect(uploaded).toEqual(
      after
        .filter((o) => beforeByKey.get(o.key) !== o.sha256)
        .map((o) => o.key)
        .sort(),
    )
    expect(plan.deletions.every((k) => k.startsWith('assets/app-Ab1Cd34E.js'))).toBe(true)
    expect(plan.deletions).toContain('assets/app-Ab1Cd34E.js')
    expect(summary.deleted).toBe(plan.deletions.length)
    assertSafeOrder(records)
    await assertBucketMatchesSite('www/', site.root)
  })

  it('the grace period keeps stale objects for N deploys', async () => {
    const grace = await makeSite(1)
    try {
      const t = () => target([], { prefix: 'grace' })
      await deploy({ dir: grace.root, target: t(), delete: true, keep: { deploys: 1 } })
      await removeFile(grace.root, 'robots.txt')
      await recompress(grace.root)
      const second = await deploy({ dir: grace.root, target: t(), delete: true, keep: { deploys: 1 } })
      expect(second.plan.kept).toEqual(['robots.txt'])
      expect(await listKeys(minio, BUCKET, 'grace/')).toContain('robots.txt')
      await writeFile(join(grace.root, 'extra.txt'), 'a change so the deploy is recorded\n')
      await recompress(grace.root)
      const third = await deploy({ dir: grace.root, target: t(), delete: true, keep: { deploys: 1 } })
      expect(third.plan.deletions).toEqual(['robots.txt'])
      expect(await listKeys(minio, BUCKET, 'grace/')).not.toContain('robots.txt')
    } finally {
      await grace.remove()
    }
  })

  it('the server killed mid-deploy: a clear error, nothing deleted, old HTML still served; a rerun converges', async () => {
    const oldIndex = (await getObject(minio, BUCKET, 'www/index.html')).body
    const keysBefore = await listKeys(minio, BUCKET, 'www/')
    await removeFile(site.root, 'assets/app-Ab2Cd34E.js')
    const v3 = fixtureFiles(3)
    await writeSite(site.root, {
      'assets/app-Ab3Cd34E.js': v3['assets/app-Ab3Cd34E.js']!,
      'index.html': v3['index.html']!,
      'about/index.html': v3['about/index.html']!,
      'assets/vendor-9f8e7d6c.js': `${v3['assets/vendor-9f8e7d6c.js']}\n// v3\n`,
    })
    await recompress(site.root)
    let uploads = 0
    const failed = deploy({
      dir: site.root,
      target: target(),
      delete: true,
      concurrency: 1,
      onEvent: (event) => {
        if (event.type === 'upload' && ++uploads === 1) minio.kill()
      },
    })
    await expect(failed).rejects.toThrow(
      /s3:\/\/site\/www\/ \(endpoint http:\/\/127\.0\.0\.1:\d+\): upload of .+ failed: cannot reach the endpoint/,
    )
    await minio.restart()
    expect((await getObject(minio, BUCKET, 'www/index.html')).body.equals(oldIndex)).toBe(true)
    const keysAfter = await listKeys(minio, BUCKET, 'www/')
    for (const key of keysBefore) expect(keysAfter).toContain(key)
    const { summary } = await deploy({ dir: site.root, target: target(), delete: true })
    expect(summary.uploaded).toBeGreaterThan(0)
    await assertBucketMatchesSite('www/', site.root)
    const { summary: again } = await deploy({ dir: site.root, target: target(), delete: true })
    expect(again.uploaded).toBe(0)
  })

  it('a multipart upload cut off mid-way is aborted by the next deploy, which then converges', async () => {
    const unfinished = async () =>
      (await minio.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: 'parts/data/big.bin' })))
        .Uploads ?? []
    // The store goes away after the first part of data/big.bin (6 MiB, two 5 MiB parts): nothing
    // can abort the upload, as when the deploy is killed.
    let killed = false
    const failed = deploy({
      dir: site.root,
      target: target([], {
        prefix: 'parts',
        onRequest: (r) => {
          if (!killed && r.operation === 'UploadPartCommand' && r.stage === 'end' && r.ok) {
            killed = true
            minio.kill()
          }
        },
      }),
    })
    await expect(failed).rejects.toThrow(/upload of data\/big\.bin failed/)
    await minio.restart()
    expect((await unfinished()).length).toBeGreaterThan(0)
    const notes: string[] = []
    await deploy({
      dir: site.root,
      target: target([], { prefix: 'parts' }),
      onEvent: (e) => {
        if (e.type === 'note') notes.push(e.message)
      },
    })
    expect(await unfinished()).toEqual([])
    expect(notes.join('\n')).toMatch(
      /s3:\/\/site\/parts\/ .*: aborted an unfinished multipart upload of data\/big\.bin started \d{4}-.*Z \(left by an interrupted deploy\)/,
    )
    await assertBucketMatchesSite('parts/', site.root)
  })

  it('wrong credentials, a missing bucket and an unreachable endpoint give clear errors without secrets', async () => {
    const wrong = 'Wr0ng-secret-value-123'
    const errors: string[] = []
    const capture = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      expect(error).toBeInstanceOf(Error)
      const text = `${error!.message}\n${error!.stack}\n${String(error!.cause ?? '')}`
      errors.push(text)
      return error!.message
    }
    expect(
      await capture(
        deploy({
          dir: site.root,
          target: target([], { credentials: { accessKeyId: 'nobody', secretAccessKey: wrong } }),
        }),
      ),
    ).toMatch(/s3:\/\/site\/www\/ .*credentials were refused \(InvalidAccessKeyId\)/)
    expect(
      await capture(
        deploy({
          dir: site.root,
          target: target([], { credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: wrong } }),
        }),
      ),
    ).toMatch(/credentials were refused \(SignatureDoesNotMatch\)/)
    expect(await capture(deploy({ dir: site.root, target: target([], { bucket: 'no-such-bucket' }) }))).toMatch(
      /s3:\/\/no-such-bucket\/www\/ .*the bucket does not exist/,
    )
    const port = await freePort()
    expect(
      await capture(deploy({ dir: site.root, target: target([], { endpoint: `http://127.0.0.1:${port}` }) })),
    ).toMatch(new RegExp(`endpoint http://127\\.0\\.0\\.1:${port}\\).*cannot reach the endpoint \\(ECONNREFUSED\\)`))
    for (const text of errors) {
      expect(text).not.toContain(wrong)
      expect(text).not.toContain(MINIO_SECRET)
    }
  })

  it('deploys the built playground: every object as stored matches', async () => {
    // Built here, by the playground's own Vite config with the plugin, so that the test runs in
    // every run (a fresh clone has no playground/dist) and nothing else writes under it.
    const built = await tempDir('playground-build')
    try {
      const vite = ['--filter', 'playground', 'exec', 'vite', 'build', '--outDir', built.path, '--emptyOutDir']
      const build = await runCollected('pnpm', vite, { cwd: REPO_ROOT })
      expect(build.code, build.stderr).toBe(0)
      const { summary } = await deploy({ dir: built.path, target: target([], { prefix: 'playground' }), delete: true })
      expect(summary.uploaded).toBe(siteObjects(await readManifest(built.path)).length)
      await assertBucketMatchesSite('playground/', built.path)
    } finally {
      await built.remove()
    }
  })
})
