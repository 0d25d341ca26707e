// Delta updates from a fresh checkout: each version is built in a new folder with an empty cache
// (as on a fresh CI runner), so the only place the versions visitors hold can come from is the
// deploy target itself. Against MinIO, rsync to a path (plain and release mode) and an rsync daemon.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  compress as compressDirectory,
  DEFAULT_DELTA_OPTIONS,
  decodeWithDictionary,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { deltaPath } from '@preencode/core/internal'
import { type DeployResult, type DeployTarget, deploy, rsyncTarget, type S3RequestRecord } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dictionaryId, sha256Of } from '../../../core/src/codecs/dictionary-hash.js'
import {
  createBucket,
  credentials,
  getObject,
  MINIO_SECRET,
  type Minio,
  startMinio,
  startRsyncDaemon,
} from '../helpers.js'

const BASE = Buffer.from(
  Array.from({ length: 2500 }, (_, i) => `export function f${i}(x) { return x * ${i % 17} + ${i} }\n`).join(''),
)
const VENDOR = Buffer.from(Array.from({ length: 1500 }, (_, i) => `export const v${i} = ${i * 7}\n`).join(''))
/** Version k of the app chunk: the base with k one-line edits, as successive source edits. */
const appVersion = (k: number): Buffer => {
  const parts: Buffer[] = []
  for (let i = 0; i < k; i++)
    parts.push(BASE.subarray(i * 20_000, (i + 1) * 20_000), Buffer.from(`export const e${i} = ${k}\n`))
  parts.push(BASE.subarray(k * 20_000))
  return Buffer.concat(parts)
}
const appName = (k: number): string => `assets/app-V${k}x7Kq2m.js`

/** Builds version k in a new folder, compressed with delta announcements and an empty cache. */
async function freshBuild(parent: string, k: number): Promise<string> {
  const root = join(parent, `checkout-${k}`, 'dist')
  const files: Record<string, Buffer> = {
    [appName(k)]: appVersion(k),
    'assets/vendor-Qw3rTy12.js': VENDOR,
    'index.html': Buffer.from(`<!doctype html><script type="module" src="/${appName(k)}"></script>`.padEnd(3000, ' ')),
  }
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), bytes)
  }
  const { manifest } = await compressDirectory(root, { cache: false })
  // What `preencode compress` does by default on a runner with no cache: announcements, no deltas.
  const { report } = await writeDeltas(root, manifest, resolveDeltaOptions({ remember: false }), { cacheDir: false })
  expect(report.deltasWritten).toBe(0)
  return root
}

/** Deploys versions 1..4 from fresh checkouts; checks each update's deltas where `read` finds them. */
async function deploySequence(
  parent: string,
  target: () => DeployTarget,
  read: (key: string) => Promise<Buffer>,
): Promise<DeployResult[]> {
  const results: DeployResult[] = []
  for (let k = 1; k <= 4; k++) {
    const result = await deploy({ dir: await freshBuild(parent, k), target: target() })
    results.push(result)
    // Visitors may hold any of the last deployed versions, up to the default `versions`.
    const held = Array.from({ length: Math.min(k - 1, DEFAULT_DELTA_OPTIONS.versions) }, (_, i) => k - 1 - i)
    expect(result.summary.deltas?.deltasWritten, `version ${k}`).toBe(held.length * 2)
    for (const old of held) {
      const dictionary = appVersion(old)
      for (const encoding of ['dcb', 'dcz'] as const) {
        const key = deltaPath(appName(k), dictionaryId(sha256Of(dictionary)), encoding)
        const decoded = await decodeWithDictionary(encoding, await read(key), dictionary)
        expect(decoded.equals(appVersion(k)), `${key} decodes to version ${k}`).toBe(true)
      }
    }
  }
  return results
}

describe('deltas from the S3 target, fresh checkout and empty cache each time', () => {
  let minio: Minio
  beforeAll(async () => {
    minio = await startMinio()
    await createBucket(minio, 'site')
  }, 90_000)
  afterAll(async () => {
    await minio?.remove()
  })

  it('reads v1 from the bucket, uploads deltas of the changed chunk before the page, reads nothing unchanged', async () => {
    const tmp = await tempDir('previous-s3')
    try {
      const records: S3RequestRecord[] = []
      const target = () =>
        s3Target({
          bucket: 'site',
          prefix: 'www',
          endpoint: minio.endpoint,
          credentials,
          onRequest: (r) => records.push(r),
        })
      const results = await deploySequence(tmp.path, target, async (key) => {
        const stored = await getObject(minio, 'site', `www/${key}`)
        expect(stored.contentEncoding).toBe(key.endsWith('.dcb') ? 'dcb' : 'dcz')
        expect(stored.contentType).toMatch(/^text\/javascript/)
        return stored.body
      })
      expect(results[1]!.summary.deltas?.source).toMatch(/^s3:\/\/site\/www\/ .*\(deploy state\)$/)
      // Only versions of the changed chunk were read, never the unchanged vendor chunk.
      const reads = records.filter((r) => r.operation === 'GetObjectCommand' && r.stage === 'start').map((r) => r.key)
      expect(reads.filter((key) => key?.includes('vendor'))).toEqual([])
      expect(reads.some((key) => key === `www/${appName(1)}`)).toBe(true)
      // The last deploy: every delta stored before the first page write started.
      const last = records.slice(records.findLastIndex((r) => r.operation === 'ListObjectsV2Command'))
      const deltaEnds = last.flatMap((r, i) =>
        r.operation === 'PutObjectCommand' && r.stage === 'end' && /\.dc[bz]$/.test(r.key ?? '') ? [i] : [],
      )
      const pageStart = last.findIndex(
        (r) => r.operation === 'PutObjectCommand' && r.stage === 'start' && /index\.html/.test(r.key ?? ''),
      )
      expect(deltaEnds.length).toBe(6)
      expect(pageStart).toBeGreaterThan(Math.max(...deltaEnds))
      expect(JSON.stringify(results.map((r) => r.summary))).not.toContain(MINIO_SECRET)
    } finally {
      await tmp.remove()
    }
  }, 180_000)

  it('names the target when the bucket cannot be read, and never the secret', async () => {
    const tmp = await tempDir('previous-s3-denied')
    try {
      const dir = await freshBuild(tmp.path, 2)
      const target = s3Target({
        bucket: 'site',
        prefix: 'www',
        endpoint: minio.endpoint,
        credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: 'wrong-secret-never-logged' },
        retry: { retries: 0 },
      })
      const failure = await deploy({ dir, target }).catch((error: Error) => error)
      expect(String(failure)).toMatch(/s3:\/\/site\/www\//)
      expect(String(failure)).not.toContain('wrong-secret-never-logged')
    } finally {
      await tmp.remove()
    }
  }, 60_000)
})

describe('deltas from rsync targets, fresh checkout and empty cache each time', () => {
  it('rsync to a path', async () => {
    const tmp = await tempDir('previous-rsync')
    try {
      const www = join(tmp.path, 'www')
      const results = await deploySequence(
        tmp.path,
        () => rsyncTarget(www),
        (key) => readFile(join(www, key)),
      )
      expect(results[3]!.summary.deltas?.source).toMatch(/^rsync .*\(deploy state\)$/)
    } finally {
      await tmp.remove()
    }
  }, 180_000)

  it('rsync in release mode: each older version read from the release that served it', async () => {
    const tmp = await tempDir('previous-rsync-release')
    try {
      const www = join(tmp.path, 'www')
      await deploySequence(
        tmp.path,
        () => rsyncTarget(www, { release: true }),
        (key) => readFile(join(www, 'current', key)),
      )
    } finally {
      await tmp.remove()
    }
  }, 180_000)

  it('an rsync daemon', async () => {
    const tmp = await tempDir('previous-rsyncd')
    const www = join(tmp.path, 'www')
    await mkdir(www)
    const daemon = await startRsyncDaemon(www)
    try {
      await deploySequence(
        tmp.path,
        () => rsyncTarget(`${daemon.url}/`),
        (key) => readFile(join(www, key)),
      )
    } finally {
      await daemon.stop()
      await rm(tmp.path, { recursive: true, force: true })
    }
  }, 180_000)
})
