// The journal (`.preencode-journal`) in the way (issue 30 item 3): a symlink out of the site, a
// folder, a FIFO, a file the run may not write, a full disk. Each ends the run with one line
// naming the file, never a stack trace or a hang, and nothing is written through the symlink.
import { spawnSync } from 'node:child_process'
import { chmod, chown, mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, IS_ROOT, listing, NOBODY, page, put, workDirs } from '../lifecycle-helpers.js'

const { workDir, cleanups } = workDirs('journal-errors')
const JOURNAL = '.preencode-journal'

/** A small site: two pages and a script, worth compressing. */
async function smallSite(work: string): Promise<string> {
  const dir = join(work, 'site')
  await put(dir, 'index.html', page('home'))
  await put(dir, 'docs/a.html', page('a'))
  await put(dir, 'app.js', `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => i))}\n`)
  return dir
}

/** Runs `compress` with a bound: a hang is a failure (status null), not a stuck test. */
function compress(dir: string, options: { uid?: number } = {}) {
  const run = spawnSync(process.execPath, [BIN, 'compress', dir, '--no-cache', '--no-deltas'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1', CI: '1', HOME: dir, PREENCODE_MALLOC_TUNING: 'off' },
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  })
  return { status: run.status, stderr: run.stderr }
}

/** One line (after any warnings) naming the journal; exit 1; no trace. */
function expectOneLine(run: { status: number | null; stderr: string }, dir: string, why: RegExp): void {
  expect(run.status, run.stderr).toBe(1)
  expect(run.stderr).not.toMatch(/\n\s+at /)
  const errors = run.stderr.split('\n').filter((line) => line.startsWith('[preencode]'))
  expect(errors, run.stderr).toHaveLength(1)
  expect(errors[0]).toContain(join(dir, JOURNAL))
  expect(errors[0]).toMatch(why)
}

describe('a journal that cannot be written', () => {
  it('a symlink out of the site: refused in one line, nothing written through it', async () => {
    const work = await workDir()
    const dir = await smallSite(work)
    const outside = join(work, 'outside.txt')
    await writeFile(outside, 'not preencode’s\n')
    await symlink(outside, join(dir, JOURNAL))
    expectOneLine(compress(dir), dir, /symlink, and preencode never writes through symlinks/)
    expect(await readFile(outside, 'utf8')).toBe('not preencode’s\n')
  })

  it('a folder in its place', async () => {
    const work = await workDir()
    const dir = await smallSite(work)
    await mkdir(join(dir, JOURNAL))
    expectOneLine(compress(dir), dir, /it is a folder \(EISDIR\)/)
  })

  it('a FIFO in its place: no hang', async ({ skip }) => {
    skip(process.platform === 'win32', 'missing on this machine: FIFOs (mkfifo)')
    const work = await workDir()
    const dir = await smallSite(work)
    expect(spawnSync('mkfifo', [join(dir, JOURNAL)]).status).toBe(0)
    expectOneLine(compress(dir), dir, /FIFO/)
  })

  it('a journal the run may not write (EACCES)', async () => {
    const work = await workDir()
    const dir = await smallSite(work)
    await writeFile(join(dir, JOURNAL), '')
    await chmod(join(dir, JOURNAL), 0o444)
    if (!IS_ROOT) {
      expectOneLine(compress(dir), dir, /permission denied \(EACCES\)/)
      return
    }
    // Root writes anywhere: the run is made as nobody, who may write the site but not the journal.
    await chmod(work, 0o755)
    for (const path of [dir, join(dir, 'docs'), ...(await listing(dir)).map((p) => join(dir, p))])
      if (!path.endsWith(JOURNAL)) await chown(path, NOBODY, NOBODY)
    expectOneLine(compress(dir, { uid: NOBODY }), dir, /permission denied \(EACCES\)/)
  })

  it('a full disk (ENOSPC) while journaling', async ({ skip }) => {
    skip(!IS_ROOT || process.platform !== 'linux', 'missing on this machine: Linux and root (a tmpfs mount)')
    const work = await workDir()
    const mount = join(work, 'small')
    await mkdir(mount)
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mount]).status === 0
    skip(!mounted, 'missing on this machine: mount -t tmpfs')
    // Before the work folder is removed (cleanups run in order).
    cleanups.unshift(async () => {
      spawnSync('umount', [mount])
    })
    const dir = await smallSite(mount)
    // Fill the disk, then free one page: enough for the lock, none for the journal.
    const filler = join(mount, 'filler')
    const { open } = await import('node:fs/promises')
    const handle = await open(filler, 'w')
    const page4k = Buffer.alloc(4096, 1)
    let size = 0
    for (;;) {
      const written = await handle.write(page4k).catch(() => undefined)
      if (!written || written.bytesWritten < 4096) break
      size += 4096
    }
    await handle.truncate(size - 4096)
    await handle.close()
    expectOneLine(compress(dir), dir, /the disk is full \(ENOSPC\)/)
  })
})
