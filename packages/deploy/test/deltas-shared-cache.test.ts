// A deploy's deltas go through the build's cache, the shared bucket included: a CI fleet that
// builds with `--cache-dir s3://…` encodes each delta once, and a fresh runner deploying the same
// change to another target takes it from the bucket. The fake S3 server stands in for the bucket.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { compress, decodeWithDictionary } from '@preencode/core'
import { deploy, localTarget } from '@preencode/deploy'
import { tempDir } from '@preencode/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { FakeS3 } from './targets/s3/fake-s3-server.js'

const V1 = Buffer.from(
  Array.from({ length: 2500 }, (_, i) => `export function f${i}(x) { return x * ${i % 17} }\n`).join(''),
)
const V2 = Buffer.concat([V1.subarray(0, 30_000), Buffer.from('export const edited = 2\n'), V1.subarray(30_000)])

let fake: FakeS3
let endpoint: string
let tmp: Awaited<ReturnType<typeof tempDir>>
const cwd = process.cwd()

beforeAll(async () => {
  fake = new FakeS3()
  endpoint = await fake.listen()
  tmp = await tempDir('deploy-deltas-shared-cache')
})
afterAll(async () => {
  fake?.server.close()
  await tmp?.remove()
})
afterEach(() => {
  process.chdir(cwd)
  vi.unstubAllEnvs()
})

/** One CI runner: its own empty local cache (the default folder, under XDG_CACHE_HOME), the shared bucket. */
function runner(name: string): void {
  // No project above the temp folder: the default cache is $XDG_CACHE_HOME/preencode.
  process.chdir(tmp.path)
  vi.stubEnv('XDG_CACHE_HOME', join(tmp.path, `${name}-cache`))
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'test')
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test')
  vi.stubEnv('AWS_REGION', 'us-east-1')
}

/** Builds a version of the site with the shared cache, as `compress --cache-dir s3://site/cache` does. */
async function build(root: string, name: string, bytes: Buffer): Promise<void> {
  const files = {
    [`assets/${name}`]: bytes,
    'index.html': Buffer.from(`<!doctype html><script type="module" src="/assets/${name}"></script>`.padEnd(2000, ' ')),
  }
  for (const [path, data] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), data)
  }
  await compress(root, { cache: 's3://site/cache', cacheEndpoint: endpoint })
}

/** v1 deployed to `www`, then v2 with deltas against it: the deltas' report. */
async function deployTwoVersions(site: string, www: string) {
  await build(join(site, 'v1'), 'app-Ab12Cd34.js', V1)
  await deploy({ dir: join(site, 'v1'), target: localTarget(www), deltas: true })
  await build(join(site, 'v2'), 'app-Ef56Gh78.js', V2)
  const { summary } = await deploy({ dir: join(site, 'v2'), target: localTarget(www), deltas: true })
  return summary.deltas!
}

describe('deploy deltas with a shared cache', () => {
  it('a fresh runner reuses the delta another runner encoded, from the bucket, and it decodes', async () => {
    runner('a')
    const first = await deployTwoVersions(join(tmp.path, 'site-a'), join(tmp.path, 'www-a'))
    expect(first.deltasWritten).toBeGreaterThan(0)
    expect(first.cacheMisses).toBe(first.deltasWritten)
    expect([...fake.objects.keys()].filter((key) => key.startsWith('cache/')).length).toBeGreaterThan(0)

    runner('b')
    const second = await deployTwoVersions(join(tmp.path, 'site-b'), join(tmp.path, 'www-b'))
    expect(second.deltasWritten).toBe(first.deltasWritten)
    // Runner b's local cache was empty: every delta came from the bucket.
    expect({ hits: second.cacheHits, misses: second.cacheMisses }).toEqual({ hits: first.deltasWritten, misses: 0 })
    const manifest = JSON.parse(await readFile(join(tmp.path, 'site-b', 'v2', '.preencode-manifest.json'), 'utf8'))
    const deltas = manifest.files.find((f: { path: string }) => f.path === 'assets/app-Ef56Gh78.js').deltas
    expect(deltas.length).toBe(first.deltasWritten)
    for (const delta of deltas as { encoding: 'dcb' | 'dcz'; path: string }[]) {
      const body = await readFile(join(tmp.path, 'www-b', delta.path))
      expect((await decodeWithDictionary(delta.encoding, body, V1)).equals(V2)).toBe(true)
    }
  })
})
