// Test helpers of the deploy suites: a small real site compressed by @preencode/core, MinIO as a
// real process, an rsync daemon, and raw S3 reads that keep Content-Encoding as stored.
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { compress as compressDirectory, type Manifest } from '@preencode/core'
import {
  freePort,
  MINIO_SECRET,
  MINIO_USER,
  type Minio as MinioServer,
  startMinio as startMinioServer,
  startProcess,
  tempDir,
} from '@preencode/test-utils'

export { MINIO_SECRET, MINIO_USER }

const text = (label: string, lines: number): string =>
  Array.from(
    { length: lines },
    (_, i) => `/* ${label} line ${i} */ export const v${i} = ${JSON.stringify(label)} + ${i};`,
  ).join('\n')

/** The site before compression: HTML naming hashed assets, a non-compressible image, a real .tar.gz, a large binary. */
export function fixtureFiles(version = 1): Record<string, string | Buffer> {
  const app = `assets/app-Ab${version}Cd34E.js`
  return {
    'index.html': `<!doctype html><html><head><link rel="stylesheet" href="/assets/style-Xy98Zw7q.css"><script type="module" src="/${app}"></script></head><body>${'<p>hello preencode</p>'.repeat(200)}</body></html>`,
    'about/index.html': `<!doctype html><html><body>${'<p>about</p>'.repeat(300)}<script src="/${app}"></script></body></html>`,
    [app]: text(`app v${version}`, 400),
    'assets/vendor-9f8e7d6c.js': text('vendor', 800),
    'assets/style-Xy98Zw7q.css': `body{margin:0}\n${Array.from({ length: 300 }, (_, i) => `.c${i}{color:#${(i * 99).toString(16).padStart(6, '0')}}`).join('\n')}`,
    'img/logo.png': randomBytes(3000),
    'downloads/data.tar.gz': gzipSync(Buffer.from('a real archive '.repeat(500))),
    'robots.txt': 'User-agent: *\nAllow: /\n',
    'data/big.bin': randomBytes(6 * 1024 * 1024 + 123),
  }
}

/** Writes files (a string or buffer each) under `root`, with mtimes one second apart from a fixed base. */
export async function writeSite(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, body] of Object.entries(files)) {
    const file = join(root, path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, body)
  }
}

/** A compressed fixture site in a temp dir: the real engine writes the variants and the manifest. */
export async function makeSite(
  version = 1,
): Promise<{ root: string; manifest: Manifest; remove: () => Promise<void> }> {
  const dir = await tempDir('deploy-site')
  await writeSite(dir.path, fixtureFiles(version))
  const { manifest } = await compressDirectory(dir.path, { cache: false, levels: { brotli: 5, zstd: 3, gzip: 6 } })
  return { root: dir.path, manifest, remove: dir.remove }
}

/** Recompresses after a change (variants rewritten, stale ones removed, manifest updated). */
export async function recompress(root: string): Promise<Manifest> {
  return (await compressDirectory(root, { cache: false, levels: { brotli: 5, zstd: 3, gzip: 6 } })).manifest
}

export async function removeFile(root: string, path: string): Promise<void> {
  await rm(join(root, path), { force: true })
}

/** Sets a file's mtime (seconds precision is what rsync keeps). */
export async function touch(path: string, seconds: number): Promise<void> {
  await utimes(path, seconds, seconds)
}

export async function mtimeOf(path: string): Promise<number> {
  return Math.floor((await stat(path)).mtimeMs / 1000)
}

/** MinIO from @preencode/test-utils, with an S3 client that keeps Content-Encoding as stored. */
export interface Minio extends MinioServer {
  client: S3Client
}

/** MinIO on a free loopback port with a throw-away data dir. */
export async function startMinio(): Promise<Minio> {
  const server = await startMinioServer()
  const client = new S3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: server.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return {
    endpoint: server.endpoint,
    port: server.port,
    dataDir: server.dataDir,
    credentials: server.credentials,
    get process() {
      return server.process
    },
    client,
    stop: () => server.stop(),
    kill: () => server.kill(),
    restart: () => server.restart(),
    async remove() {
      client.destroy()
      await server.remove()
    },
  }
}

export async function createBucket(minio: Minio, bucket: string): Promise<void> {
  await minio.client.send(new CreateBucketCommand({ Bucket: bucket }))
}

export async function listKeys(minio: Minio, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = []
  let token: string | undefined
  do {
    const page = await minio.client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }),
    )
    for (const item of page.Contents ?? []) keys.push(item.Key!.slice(prefix.length))
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return keys.sort()
}

export interface StoredObjectRead {
  body: Buffer
  contentType: string | undefined
  contentEncoding: string | undefined
  cacheControl: string | undefined
  metadata: Record<string, string>
}

export async function getObject(minio: Minio, bucket: string, key: string): Promise<StoredObjectRead> {
  const response = await minio.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
  const body = Buffer.from(await response.Body!.transformToByteArray())
  return {
    body,
    contentType: response.ContentType,
    contentEncoding: response.ContentEncoding,
    cacheControl: response.CacheControl,
    metadata: response.Metadata ?? {},
  }
}

export const credentials = { accessKeyId: MINIO_USER, secretAccessKey: MINIO_SECRET }

/** An rsync daemon on a free loopback port serving `path` as module `site`, writable. */
export async function startRsyncDaemon(path: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const conf = await tempDir('rsyncd')
  const confPath = join(conf.path, 'rsyncd.conf')
  await writeFile(
    confPath,
    [
      `pid file = ${join(conf.path, 'rsyncd.pid')}`,
      'use chroot = false',
      `uid = ${process.getuid?.() ?? 0}`,
      `gid = ${process.getgid?.() ?? 0}`,
      '[site]',
      `  path = ${path}`,
      '  read only = false',
      '',
    ].join('\n'),
  )
  const proc = await startProcess(
    'rsyncd',
    'rsync',
    ['--daemon', '--no-detach', `--config=${confPath}`, `--port=${port}`, '--address=127.0.0.1'],
    { port },
  )
  return {
    url: `rsync://127.0.0.1:${port}/site`,
    async stop() {
      await proc.stop()
      await conf.remove()
    },
  }
}

/** Every file under `root`, as sorted paths relative to it. */
export async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort()
}
