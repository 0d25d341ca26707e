// The shared cache (`--cache-dir s3://bucket/prefix`) with the real binary against MinIO as a
// real process: runners are fresh copies of the site with empty local caches of their own, as
// CI jobs are; credentials come from the standard AWS environment variables.
import { spawnSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import type { CompressReport } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createBucket,
  getObject,
  listKeys,
  MINIO_SECRET,
  MINIO_USER,
  type Minio,
  startMinio,
} from '../../../deploy/test/helpers.js'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')
const BUCKET = 'build-cache'
let minio: Minio
let work: { path: string; remove: () => Promise<void> }
let source: string
let runners = 0

interface Run {
  status: number | null
  stdout: string
  stderr: string
  report?: CompressReport
}

/** A fresh runner: its own copy of the site and its own empty local cache. */
async function runner(): Promise<{ dir: string; run: (args: string[], env?: NodeJS.ProcessEnv) => Run }> {
  const home = join(work.path, `runner-${++runners}`)
  const dir = join(home, 'dist')
  await cp(source, dir, { recursive: true })
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): Run => {
    const child = spawnSync(process.execPath, [BIN, 'compress', dir, ...args], {
      cwd: home,
      encoding: 'utf8',
      env: {
        ...process.env,
        NO_COLOR: '1',
        CI: 'true',
        XDG_CACHE_HOME: join(home, 'local-cache'),
        AWS_ACCESS_KEY_ID: MINIO_USER,
        AWS_SECRET_ACCESS_KEY: MINIO_SECRET,
        AWS_REGION: 'us-east-1',
        AWS_ENDPOINT_URL: minio.endpoint,
        ...env,
      },
    })
    const result: Run = { status: child.status, stdout: child.stdout, stderr: child.stderr }
    if (args.includes('--json') && child.status === 0) result.report = JSON.parse(child.stdout) as CompressReport
    return result
  }
  return { dir, run }
}

/** Every file of a site (variants and manifest included) with its bytes. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const bytes = await readFile(join(dir, name)).catch(() => undefined)
    if (bytes) files.set(name, bytes)
  }
  return files
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()])
  for (const [name, bytes] of expected) {
    if (name === '.preencode-manifest.json') continue
    expect(actual.get(name)!.equals(bytes), name).toBe(true)
  }
}

/** What only the manifest may differ in between runs: nothing but the file list and sizes matter. */
function manifestFiles(files: Map<string, Buffer>): unknown {
  const manifest = JSON.parse(files.get('.preencode-manifest.json')!.toString()) as {
    files: { path: string; sha256: string; variants: unknown[] }[]
  }
  return manifest.files.map((f) => ({ path: f.path, sha256: f.sha256, variants: f.variants }))
}

beforeAll(async () => {
  minio = await startMinio()
  await createBucket(minio, BUCKET)
  work = await tempDir('shared-cache')
  source = join(work.path, 'source')
  await mkdir(join(source, 'assets'), { recursive: true })
  const line = (i: number): string =>
    `export function row${i}(x) { return { id: ${i}, label: 'row ${i}', value: x * ${i % 17} } }\n`
  await writeFile(join(source, 'assets', 'vendor-a1b2c3.js'), Array.from({ length: 4000 }, (_, i) => line(i)).join(''))
  await writeFile(join(source, 'assets', 'app-d4e5f6.js'), Array.from({ length: 1500 }, (_, i) => line(i * 3)).join(''))
  await writeFile(
    join(source, 'assets', 'style-778899.css'),
    Array.from(
      { length: 800 },
      (_, i) => `.c${i} { color: #${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}; margin: ${i % 9}px }\n`,
    ).join(''),
  )
  for (let i = 0; i < 6; i++) {
    await writeFile(
      join(source, `page-${i}.html`),
      `<!doctype html><title>page ${i}</title>\n${'<p>preencode shares compressed bytes across CI runners.</p>\n'.repeat(40 + i * 30)}`,
    )
  }
  await writeFile(join(source, 'robots.txt'), 'User-agent: *\n')
})

let cleanupProbe: () => Promise<void> = async () => {}

afterAll(async () => {
  await cleanupProbe()
  await minio?.remove()
  await work?.remove()
})

describe('shared cache on S3-compatible storage (MinIO)', () => {
  let reference: Map<string, Buffer>
  let encodes = 0

  it('runner A compresses cold and fills the bucket; runner B (fresh, empty local cache) encodes nothing and writes identical bytes', async () => {
    const a = await runner()
    const first = a.run(['--cache-dir', `s3://${BUCKET}/ci`, '--json'])
    expect(first.stderr).not.toMatch(/warning/)
    expect(first.status).toBe(0)
    encodes = first.report!.cache.misses
    expect(encodes).toBeGreaterThan(20)
    expect(first.report!.cache.hits).toBe(0)
    const keys = await listKeys(minio, BUCKET, 'ci/')
    expect(keys).toHaveLength(encodes)
    reference = await snapshot(a.dir)

    // Runner B names the endpoint with --endpoint instead of AWS_ENDPOINT_URL.
    const b = await runner()
    const second = b.run(['--cache-dir', `s3://${BUCKET}/ci`, '--endpoint', minio.endpoint, '--json'], {
      AWS_ENDPOINT_URL: '',
    })
    expect(second.status).toBe(0)
    expect(second.report!.cache.misses).toBe(0)
    expect(second.report!.cache.hits).toBe(encodes)
    const copy = await snapshot(b.dir)
    expectSameFiles(copy, reference)
    expect(manifestFiles(copy)).toEqual(manifestFiles(reference))
  })

  it('a tampered, a truncated and a foreign entry are refused and recomputed; the bucket is repaired', async () => {
    const keys = await listKeys(minio, BUCKET, 'ci/')
    const put = (key: string, body: Buffer) =>
      minio.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `ci/${key}`, Body: body }))
    const tampered = await getObject(minio, BUCKET, `ci/${keys[0]}`)
    const flipped = Buffer.from(tampered.body)
    flipped[flipped.length - 1]! ^= 0xff
    await put(keys[0]!, flipped)
    const truncated = await getObject(minio, BUCKET, `ci/${keys[1]}`)
    await put(keys[1]!, truncated.body.subarray(0, truncated.body.length >> 1))
    // A valid entry, but of another key: its checksum is bound to the key it was made for.
    const other = await getObject(minio, BUCKET, `ci/${keys[3]}`)
    await put(keys[2]!, other.body)

    const c = await runner()
    const run = c.run(['--cache-dir', `s3://${BUCKET}/ci`])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/\(3 compressed, \d+ from cache\)/)
    expect(run.stderr).toMatch(
      /shared cache s3:\/\/build-cache\/ci: \d+ entries from the bucket, 3 uploaded, 3 refused/,
    )
    expectSameFiles(await snapshot(c.dir), reference)

    const d = await runner()
    const again = d.run(['--cache-dir', `s3://${BUCKET}/ci`, '--json'])
    expect(again.report!.cache.misses).toBe(0)
  })

  it('three shards then an assemble run produce the same files as one unsharded run, each file encoded once', async () => {
    let encoded = 0
    for (let i = 1; i <= 3; i++) {
      const shard = await runner()
      const before = await snapshot(shard.dir)
      const run = shard.run(['--cache-dir', `s3://${BUCKET}/shards`, '--shard', `${i}/3`, '--json'])
      expect(run.status).toBe(0)
      encoded += run.report!.cache.misses
      expect(run.report!.cache.misses).toBeGreaterThan(0)
      // A shard writes nothing into the site: no variant, no manifest.
      expectSameFiles(await snapshot(shard.dir), before)
    }
    expect(encoded).toBe(encodes)
    const assemble = await runner()
    const run = assemble.run(['--cache-dir', `s3://${BUCKET}/shards`, '--json'])
    expect(run.status).toBe(0)
    expect(run.report!.cache.misses).toBe(0)
    const assembled = await snapshot(assemble.dir)
    expectSameFiles(assembled, reference)
    expect(manifestFiles(assembled)).toEqual(manifestFiles(reference))
  })

  it('a bad --shard and --endpoint without an s3:// cache fail with one clear line', async () => {
    const r = await runner()
    const bad = r.run(['--shard', '4/3'])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/--shard is `4\/3`; it must be i\/n/)
    const endpoint = r.run(['--endpoint', 'http://127.0.0.1:9'])
    expect(endpoint.status).toBe(1)
    expect(endpoint.stderr).toMatch(/--endpoint .* needs --cache-dir s3:\/\//)
    // The two flags by their names, not the library's keys.
    const uncached = r.run(['--shard', '1/2', '--no-cache'])
    expect(uncached.status).toBe(1)
    expect(uncached.stderr).toMatch(/--shard fills the cache .* but --no-cache turns the cache off/)
  })

  it('with MinIO stopped, one warning and a correct local result; the build does not fail', async () => {
    await minio.stop()
    try {
      const r = await runner()
      const run = r.run(['--cache-dir', `s3://${BUCKET}/ci`, '--json'])
      expect(run.status).toBe(0)
      expect(run.report!.cache.misses).toBe(encodes)
      const warnings = run.stderr.split('\n').filter((l) => l.startsWith('warning:'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(
        /shared cache s3:\/\/build-cache\/ci \(endpoint http:\/\/127\.0\.0\.1:\d+\) cannot be read .*compressing locally/,
      )
      expect(run.stderr).not.toContain(MINIO_SECRET)
      expectSameFiles(await snapshot(r.dir), reference)
    } finally {
      await minio.restart()
    }
  })
})

describe('the S3 SDK is loaded only for an s3:// cache', () => {
  it('a run with a local cache never resolves @aws-sdk/client-s3', async () => {
    const r = await runner()
    const script = `
      import { registerHooks } from 'node:module'
      const seen = []
      registerHooks({ resolve(specifier, context, next) { if (specifier.startsWith('@aws-sdk/')) seen.push(specifier); return next(specifier, context) } })
      const { compress: compressDirectory } = await import('@preencode/core')
      await compressDirectory(${JSON.stringify(r.dir)}, { cache: ${JSON.stringify(join(r.dir, '..', 'local'))} })
      const before = seen.length
      await compressDirectory(${JSON.stringify(r.dir)}, { cache: 's3://${BUCKET}/probe', cacheEndpoint: ${JSON.stringify(minio.endpoint)} })
      console.log(JSON.stringify({ before, after: seen.length }))`
    // Written beside the package so that `@preencode/core` resolves; run from the runner's
    // folder so that the local tier of the s3:// run is its own empty XDG cache.
    const probe = resolve(import.meta.dirname, `../../dist/probe-${process.pid}.mjs`)
    await writeFile(probe, script)
    cleanupProbe = () => rm(probe, { force: true })
    const child = spawnSync(process.execPath, [probe], {
      cwd: join(r.dir, '..'),
      encoding: 'utf8',
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: MINIO_USER,
        AWS_SECRET_ACCESS_KEY: MINIO_SECRET,
        XDG_CACHE_HOME: join(r.dir, '..', 'xdg'),
      },
    })
    expect(child.stderr).toBe('')
    const { before, after } = JSON.parse(child.stdout) as { before: number; after: number }
    expect(before).toBe(0)
    expect(after).toBeGreaterThan(0)
  })
})
