// Issue 36.1: a variant on a target is always the encoding of the file beside it. A site is
// compressed and deployed to a folder, then built again so that a file loses a variant it had
// (it fell under `threshold`, `minSaving` was raised, it became incompressible, a format was
// dropped, `keepOriginals` changed) and deployed with default flags (no `--delete`): the target
// must hold no variant the new manifest does not list, every variant there must decode to the
// file the site has, and a real `.tar.gz` download stays. Before the fix the previous release's
// `index.html.br` stayed and nginx sent the old page.
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, gzipSync, zstdDecompressSync } from 'node:zlib'
import { type CompressOptions, compress, type Manifest } from '@preencode/core'
import { type DeployTarget, deploy, localTarget, rsyncTarget } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { hasTool, tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { createBucket, credentials, getObject, listKeys, startMinio, writeSite } from '../helpers.js'

const LEVELS = { brotli: 5, zstd: 3, gzip: 6 } as const
const DECODE: Record<string, (bytes: Buffer) => Buffer> = {
  '.br': brotliDecompressSync,
  '.gz': gunzipSync,
  '.zst': zstdDecompressSync,
}

const long = (label: string): string => `<!doctype html><p>${label} ${'lorem ipsum dolor sit amet '.repeat(100)}</p>`
/** Text that compresses by about half: random hex. */
const halfCompressible = (): string => randomBytes(4000).toString('hex')

/** One way of losing a variant: the first build, the second, and the file that loses one. */
interface Way {
  name: string
  first: Record<string, string | Buffer>
  firstOptions?: CompressOptions
  second: Record<string, string | Buffer>
  secondOptions?: CompressOptions
  /** The variant the target held after the first deploy and must not hold after the second. */
  lost: string
}

const download = gzipSync(Buffer.from('a real archive '.repeat(500)))
const common = { 'downloads/data.tar.gz': download, 'downloads/data.tar': 'not compressible by name\n' }
const hex = halfCompressible()

const WAYS: Way[] = [
  {
    name: 'the file fell under the threshold (the issue repro)',
    first: { 'index.html': long('OLD PAGE') },
    second: { 'index.html': '<p>NEW PAGE, short</p>\n' },
    lost: 'index.html.br',
  },
  {
    name: 'the threshold was raised (file unchanged)',
    first: { 'index.html': long('PAGE') },
    second: { 'index.html': long('PAGE') },
    secondOptions: { threshold: 100_000 },
    lost: 'index.html.br',
  },
  {
    name: 'minSaving was raised',
    first: { 'data.txt': hex },
    second: { 'data.txt': `${hex}\n` },
    secondOptions: { minSaving: 0.6 },
    lost: 'data.txt.br',
  },
  {
    name: 'the file became incompressible',
    first: { 'data.txt': long('TEXT') },
    second: { 'data.txt': randomBytes(5000) },
    lost: 'data.txt.gz',
  },
  {
    name: 'a format was dropped',
    first: { 'index.html': long('PAGE') },
    second: { 'index.html': long('NEW PAGE') },
    secondOptions: { formats: ['gzip', 'brotli'] },
    lost: 'index.html.zst',
  },
  {
    // The original stays on the target beside the new `.gz` that stands for it: servers send it.
    name: 'keepOriginals changed (true, then false)',
    first: { 'index.html': long('OLD PAGE') },
    second: { 'index.html': long('NEW PAGE') },
    secondOptions: { keepOriginals: false },
    lost: 'index.html',
  },
]

async function build(site: string, files: Record<string, string | Buffer>, options: CompressOptions = {}) {
  await rm(site, { recursive: true, force: true })
  await writeSite(site, { ...common, ...files })
  return (await compress(site, { cache: false, levels: LEVELS, ...options })).manifest
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort()
}

/**
 * What is wrong with the target against the manifest deployed last, as `key -> why`: a variant
 * of a site file the manifest does not list, or one that does not decode to the site's file.
 */
export async function variantProblems(
  keys: readonly string[],
  read: (key: string) => Promise<Buffer>,
  manifest: Manifest,
): Promise<Record<string, string>> {
  const files = new Map(manifest.files.map((f) => [f.path, f]))
  const problems: Record<string, string> = {}
  for (const key of keys) {
    if (files.get(key)?.originalOnDisk === false) problems[key] = 'an original the site keeps only as variants'
    const suffix = Object.keys(DECODE).find((s) => key.endsWith(s))
    const file = suffix ? files.get(key.slice(0, -suffix.length)) : undefined
    if (!suffix || !file || files.has(key)) continue
    if (!file.variants.some((v) => v.path === key)) {
      problems[key] = 'not listed by the manifest deployed'
      continue
    }
    const decoded = DECODE[suffix]!(await read(key))
    if (createHash('sha256').update(decoded).digest('hex') !== file.sha256) problems[key] = 'decodes to another version'
  }
  return problems
}

describe('a variant on a folder target is the encoding of the file beside it (issue 36.1)', () => {
  for (const way of WAYS) {
    it(way.name, async () => {
      const tmp = await tempDir('stale-variants')
      try {
        const site = join(tmp.path, 'site')
        const www = join(tmp.path, 'www')
        await build(site, way.first, way.firstOptions)
        await deploy({ dir: site, target: localTarget(www) })
        expect(existsSync(join(www, way.lost)), `${way.lost} after the first deploy`).toBe(true)
        const manifest = await build(site, way.second, way.secondOptions)
        await deploy({ dir: site, target: localTarget(www) })
        const keys = await listFiles(www)
        expect(keys).not.toContain(way.lost)
        expect(await variantProblems(keys, (key) => readFile(join(www, key)), manifest)).toEqual({})
        // A real download beside a file of that name stays: it is a file of the site.
        expect((await readFile(join(www, 'downloads/data.tar.gz'))).equals(download)).toBe(true)
      } finally {
        await tmp.remove()
      }
    })
  }
})

/** The repro on any target: after the second deploy no variant there decodes to the old page. */
async function repro(
  tmp: string,
  target: () => DeployTarget,
  list: () => Promise<{ keys: string[]; read: (key: string) => Promise<Buffer> }>,
): Promise<void> {
  const site = join(tmp, 'site')
  const [way] = WAYS
  await build(site, way!.first)
  await deploy({ dir: site, target: target() })
  expect((await list()).keys).toContain('index.html.br')
  const manifest = await build(site, way!.second)
  await deploy({ dir: site, target: target() })
  const { keys, read } = await list()
  expect(keys).not.toContain('index.html.br')
  expect(await variantProblems(keys, read, manifest)).toEqual({})
  expect((await read('index.html')).toString()).toContain('NEW PAGE')
  expect((await read('downloads/data.tar.gz')).equals(download)).toBe(true)
}

describe('the issue 36.1 repro on rsync and S3', () => {
  it('rsync', async ({ skip }) => {
    skip(!hasTool('rsync'), 'missing on this machine: rsync')
    const tmp = await tempDir('stale-variants-rsync')
    try {
      const www = join(tmp.path, 'www')
      const list = async () => ({ keys: await listFiles(www), read: (key: string) => readFile(join(www, key)) })
      await repro(tmp.path, () => rsyncTarget(www), list)
    } finally {
      await tmp.remove()
    }
  })

  it('S3 (MinIO)', async () => {
    const tmp = await tempDir('stale-variants-s3')
    const minio = await startMinio()
    try {
      await createBucket(minio, 'variants')
      const target = () => s3Target({ bucket: 'variants', prefix: 'www', endpoint: minio.endpoint, credentials })
      const list = async () => ({
        keys: await listKeys(minio, 'variants', 'www/'),
        read: async (key: string) => (await getObject(minio, 'variants', `www/${key}`)).body,
      })
      await repro(tmp.path, target, list)
    } finally {
      await minio.remove()
      await tmp.remove()
    }
  })
})
