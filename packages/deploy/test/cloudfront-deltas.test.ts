// CloudFront with deltas, up to the bucket: two versions of a site, each built in a fresh folder
// (no cache, so the deltas can only come from the bucket), deployed to MinIO, the second by the
// real CLI (`preencode deploy --key-value-store`), which writes the KeyValueStore data after the
// upload from the manifest the deploy left behind. The store must name exactly the delta objects
// the bucket holds, each stored with the original's Content-Type and its Content-Encoding, and
// the generated function (in node:vm) must lead every request to an object that exists and decodes.
import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import { compress as compressDirectory, decodeWithDictionary, resolveDeltaOptions, writeDeltas } from '@preencode/core'
import { deltaPath } from '@preencode/core/internal'
import { deploy } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dictionaryId, sha256Of } from '../../core/src/codecs/dictionary-hash.js'
import { loadCloudfrontFunction, viewerRequest } from '../../server-config/test/cloudfront/vm.js'
import { createBucket, credentials, getObject, listKeys, type Minio, startMinio } from './helpers.js'

const CLI = join(REPO_ROOT, 'packages/cli/dist/bin.js')
const BUCKET = 'cf-site'
const CHROME = 'gzip, deflate, br, zstd, dcb, dcz'

const page = (k: number): Buffer =>
  Buffer.from(
    `<!doctype html><html><head><script type="module" src="/${app(k)}"></script></head><body>${'<p>a page of the site</p>'.repeat(200)}</body></html>`,
  )
const app = (k: number): string => `assets/app-V${k}x7Kq2m.js`
const appBytes = (k: number): Buffer =>
  Buffer.from(
    Array.from(
      { length: 3000 },
      (_, i) => `export function f${i}(x) { return x * ${i % 13} + ${i === 1500 ? k : i} }\n`,
    ).join(''),
  )
const style = Buffer.from(Array.from({ length: 400 }, (_, i) => `.c${i}{margin:${i}px}`).join('\n'))

/** Version k in a new folder, compressed as `preencode compress` does on a runner with no cache. */
async function freshBuild(parent: string, k: number): Promise<string> {
  const root = join(parent, `checkout-${k}`, 'dist')
  const files: Record<string, Buffer> = {
    'index.html': page(k),
    [app(k)]: appBytes(k),
    'assets/style-Xy98Zw7q.css': style,
  }
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), bytes)
  }
  const { manifest } = await compressDirectory(root, { cache: false })
  await writeDeltas(root, manifest, resolveDeltaOptions({ remember: false }), { cacheDir: false })
  return root
}

/** The real CLI; its stdout and stderr. */
async function run(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } })
}

describe('CloudFront KeyValueStore data against the objects in the bucket', () => {
  let minio: Minio
  let dir: { path: string; remove: () => Promise<void> }
  beforeAll(async () => {
    minio = await startMinio()
    await createBucket(minio, BUCKET)
    dir = await tempDir('cf-deltas')
  }, 90_000)
  afterAll(async () => {
    await minio?.remove()
    await dir?.remove()
  })

  it('names exactly the deltas the bucket holds, typed and encoded, and the function reaches them', async () => {
    const target = () => s3Target({ bucket: BUCKET, endpoint: minio.endpoint, region: 'us-east-1', credentials })
    await deploy({ dir: await freshBuild(dir.path, 1), target: target() })
    // Version 2 as users deploy it: the CLI, which writes the store's data after the upload.
    const site = await freshBuild(dir.path, 2)
    const kvsFile = join(dir.path, 'kvs.json')
    const deployed = await run(
      [
        'deploy',
        site,
        '--to',
        `s3://${BUCKET}`,
        '--endpoint',
        minio.endpoint,
        '--delete',
        '--key-value-store',
        kvsFile,
      ],
      { AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey },
    )
    expect(deployed.stdout).toMatch(
      /dictionary transport: 1 changed files as deltas: .*, 2 delta files, previous versions from s3:\/\//,
    )
    expect(deployed.stderr).toContain(`wrote ${kvsFile}`)
    // The same data as `preencode config cloudfront` gives from the manifest the deploy left.
    const fnFile = join(dir.path, 'viewer-request.js')
    const configKvs = join(dir.path, 'kvs-from-config.json')
    await run(['config', 'cloudfront', site, '--out', fnFile, '--key-value-store', configKvs])
    expect(await readFile(configKvs, 'utf8')).toBe(await readFile(kvsFile, 'utf8'))
    const kvsText = await readFile(kvsFile, 'utf8')
    const entries = (JSON.parse(kvsText) as { data: { key: string; value: string }[] }).data

    // Every delta the store names, as deploy keys them.
    const named: string[] = []
    for (const { key, value } of entries) {
      for (const part of value.split('|').slice(1)) {
        for (const letter of part.slice(44))
          named.push(deltaPath(key, part.slice(0, 44), letter === 'b' ? 'dcb' : 'dcz'))
      }
    }
    const inBucket = (await listKeys(minio, BUCKET)).filter((key) => key.includes('.dict/'))
    expect(named.length).toBe(2)
    expect(named.sort()).toEqual(inBucket)

    for (const key of inBucket) {
      const head = await minio.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))
      expect(head.ContentType, key).toBe('text/javascript; charset=utf-8')
      expect(head.ContentEncoding, key).toBe(key.endsWith('.dcb') ? 'dcb' : 'dcz')
    }

    // The function, given this store, leads to objects that exist and decode to version 2.
    const handler = loadCloudfrontFunction(await readFile(fnFile, 'utf8'), kvsText)
    const held = `:${dictionaryId(sha256Of(appBytes(1)))}:`
    const cases: Array<[string, string, string]> = [
      [CHROME, held, 'dcb'],
      ['br, dcz', held, 'dcz'],
      [CHROME, `:${dictionaryId(sha256Of(Buffer.from('another version')))}:`, 'br'],
      ['gzip, br, zstd', held, 'br'],
    ]
    for (const [ae, ad, coding] of cases) {
      const request = await handler(viewerRequest(`/${app(2)}`, { 'accept-encoding': ae, 'available-dictionary': ad }))
      const object = await getObject(minio, BUCKET, decodeURIComponent(request.uri.slice(1)))
      expect(object.contentEncoding, `${ae} ${ad}`).toBe(coding)
      expect(object.contentType).toBe('text/javascript; charset=utf-8')
      if (coding !== 'br')
        expect(await decodeWithDictionary(coding as 'dcb' | 'dcz', object.body, appBytes(1))).toEqual(appBytes(2))
    }
  }, 120_000)
})
