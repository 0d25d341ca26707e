// The compression cache as users' machines treat it (issue 19): a cache folder whose entries
// were swapped or crafted (a CI cache restored from another branch, a shared runner), and a
// cache folder that cannot be used at all (a file in its place, a read-only mount) while delta
// updates are on, the default.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, chown, cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cacheKey, openCache } from '../../core/src/cache/cache.js'
import { encoderParams, encoderSettings } from '../../core/src/codecs/encode.js'
import { BIN, cli, expectVariantsDecodeTo, IS_ROOT, listing, NOBODY, site, workDirs } from './lifecycle-helpers.js'

const { workDir, cleanups } = workDirs('lifecycle-cache')

/** A copy of the site's originals only, as a fresh checkout builds it. */
async function freshCopy(work: string, from: string, name: string): Promise<string> {
  const dir = join(work, name)
  await cp(from, dir, { recursive: true, filter: (path) => !/\.(br|gz|zst)$|preencode-manifest/.test(path) })
  return dir
}

async function expectEveryVariantDecodes(dir: string): Promise<void> {
  for (const path of ['index.html', 'about/index.html', 'assets/app-3f2a9c1b.js'])
    await expectVariantsDecodeTo(dir, path, await readFile(join(dir, path)))
}

describe('a damaged local cache (issue 19, case 1)', () => {
  it('entries swapped between keys are refused and recomputed: every variant decodes to its own original', async () => {
    const work = await workDir()
    const dir = await site(work)
    const cache = join(work, 'cache')
    expect(cli(['compress', dir, '--cache-dir', cache, '--no-deltas'], work).status).toBe(0)
    // Rotate every entry file one place along: each key now holds another key's bytes.
    const entries: string[] = []
    for (const shard of await readdir(join(cache, 'v1'))) {
      for (const name of await readdir(join(cache, 'v1', shard))) entries.push(join(cache, 'v1', shard, name))
    }
    expect(entries.length).toBeGreaterThanOrEqual(9)
    const first = await readFile(entries[0]!)
    for (let i = 0; i < entries.length - 1; i++) await writeFile(entries[i]!, await readFile(entries[i + 1]!))
    await writeFile(entries.at(-1)!, first)

    const copy = await freshCopy(work, dir, 'checkout')
    const run = cli(['compress', copy, '--cache-dir', cache, '--no-deltas', '--json'], work)
    expect(run.status, run.stderr).toBe(0)
    expect((JSON.parse(run.stdout) as { cache: { hits: number } }).cache.hits).toBe(0)
    await expectEveryVariantDecodes(copy)
  })

  it('an entry crafted for its key (a <script> in one page’s .br) is refused and recomputed', async () => {
    const work = await workDir()
    const dir = await site(work)
    const cache = join(work, 'cache')
    expect(cli(['compress', dir, '--cache-dir', cache, '--no-deltas'], work).status).toBe(0)
    const original = await readFile(join(dir, 'index.html'))
    const params = encoderParams('brotli', { size: original.byteLength, path: 'index.html' }, 11)
    const key = cacheKey({
      contentSha256: createHash('sha256').update(original).digest('hex'),
      format: 'brotli',
      settings: encoderSettings('brotli', params),
    })
    // Whoever can write the folder can write a well-formed entry for any key.
    const evil = Buffer.from(original.toString().replace('<body>', '<body><script>alert(document.cookie)</script>'))
    await openCache(cache, 1 << 30).set(key, brotliCompressSync(evil))

    const copy = await freshCopy(work, dir, 'checkout')
    const run = cli(['compress', copy, '--cache-dir', cache, '--no-deltas'], work)
    expect(run.status, run.stderr).toBe(0)
    await expectEveryVariantDecodes(copy)
    // The rerun over the first folder, where the honest .br is already on disk, keeps it.
    expect(cli(['compress', dir, '--cache-dir', cache, '--no-deltas'], work).status).toBe(0)
    await expectEveryVariantDecodes(dir)
  })
})

describe('an unusable cache folder while delta updates are on (issue 19, case 3)', () => {
  it('--cache-dir naming a file: one warning, exit 0, the site compressed', async () => {
    const work = await workDir()
    const dir = await site(work)
    const file = join(work, 'not-a-folder')
    await writeFile(file, 'a file where the cache should be\n')
    const run = cli(['compress', dir, '--cache-dir', file], work)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
    expect(run.stderr).toMatch(/cache .*not-a-folder/)
    await expectEveryVariantDecodes(dir)
    expect((await readFile(file, 'utf8')).startsWith('a file where')).toBe(true)
  })

  it('a read-only cache folder: one warning, exit 0, the site compressed', async ({ skip }) => {
    skip(!IS_ROOT, 'missing on this machine: root (the run is made as nobody)')
    const work = await workDir()
    const dir = await site(work)
    const cache = join(work, 'cache')
    expect(cli(['compress', dir, '--cache-dir', cache, '--no-deltas'], work).status).toBe(0)
    const copy = await freshCopy(work, dir, 'checkout')
    // Root writes anywhere: the run is made as nobody, who may write the site but not the cache.
    await chmod(work, 0o755)
    for (const path of [copy, ...(await listing(copy)).map((p) => join(copy, p))]) await chown(path, NOBODY, NOBODY)
    for (const sub of ['assets', 'about']) await chown(join(copy, sub), NOBODY, NOBODY)
    await rename(join(cache, 'v1'), join(cache, 'v1-moved')) // every entry a miss: each wants a write
    const child = spawnSync(process.execPath, [BIN, 'compress', copy, '--cache-dir', cache], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '', HOME: copy },
      uid: NOBODY,
      gid: NOBODY,
    })
    expect(child.status, child.stderr).toBe(0)
    expect(child.stderr).not.toMatch(/\n\s+at /)
    expect(child.stderr.trim().split('\n'), child.stderr).toHaveLength(1)
    expect(child.stderr).toMatch(/cannot write to the cache/)
    await expectEveryVariantDecodes(copy)
  })
})

describe('a cache folder on a full disk (issue 19, case 3)', () => {
  /** A 64 KiB tmpfs, filled to the last byte: needs root and `mount`. */
  async function fullDisk(work: string): Promise<string | undefined> {
    const dir = join(work, 'full')
    await mkdir(dir)
    if (!IS_ROOT || spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status !== 0) return undefined
    // Unmounted before the work folder is removed.
    cleanups.unshift(async () => {
      spawnSync('umount', [dir])
    })
    await writeFile(join(dir, 'filler'), Buffer.alloc(64 * 1024)).catch(() => {})
    for (let i = 0; ; i++) {
      const full = await writeFile(join(dir, `filler-${i}`), Buffer.alloc(4096)).then(
        () => false,
        () => true,
      )
      if (full) break
    }
    return dir
  }

  it('one warning, exit 0, the site compressed', async (test) => {
    const work = await workDir()
    const dir = await site(work)
    const full = await fullDisk(work)
    if (!full) return test.skip('missing on this machine: root and mount (a 64 KiB tmpfs)')
    const run = cli(['compress', dir, '--cache-dir', full], work)
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
    expect(run.stderr).toMatch(/warning: cannot write to the cache at .*full \(ENOSPC/)
    await expectEveryVariantDecodes(dir)
  })
})

describe('a shared cache that accepts connections and never answers (issue 19, case 7)', () => {
  it('compress falls back to a local build with one warning naming the bucket, and exits 0', async () => {
    const work = await workDir()
    const dir = await site(work)
    const sockets: Socket[] = []
    const server = createServer((socket) => {
      sockets.push(socket) // read nothing, answer nothing, close nothing
    })
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((closed) => server.close(closed))
    })
    const { port } = server.address() as { port: number }
    const child = spawn(
      process.execPath,
      [BIN, 'compress', dir, '--cache-dir', 's3://build-cache/site', '--endpoint', `http://127.0.0.1:${port}`],
      {
        cwd: work,
        env: {
          ...process.env,
          NO_COLOR: '1',
          CI: '',
          XDG_CACHE_HOME: join(work, 'local-cache'),
          AWS_ACCESS_KEY_ID: 'test',
          AWS_SECRET_ACCESS_KEY: 'test-secret',
          AWS_REGION: 'us-east-1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.stdout.resume()
    // Not a speed limit: a run that never ends must fail the test instead of hanging it (it
    // hung for 484 s before the fix).
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 150_000)
    const [status, signal] = await new Promise<[number | null, string | null]>((done) =>
      child.on('exit', (code, sig) => done([code, sig])),
    )
    clearTimeout(watchdog)
    expect(signal, 'the run ended on its own').toBeNull()
    expect(status, stderr).toBe(0)
    expect(sockets.length).toBeGreaterThan(0)
    const lines = stderr.trim().split('\n')
    expect(
      lines.filter((l) => l.startsWith('warning:')),
      stderr,
    ).toHaveLength(1)
    expect(stderr).toContain(
      `warning: the shared cache s3://build-cache/site (endpoint http://127.0.0.1:${port}) cannot be read (no answer for 5 s, twice); compressing locally`,
    )
    expect(stderr).not.toMatch(/test-secret/)
    await expectEveryVariantDecodes(dir)
  })
})
