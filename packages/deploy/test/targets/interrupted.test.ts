// A deploy to a local folder killed with SIGKILL at chosen points, two deploys into one folder at
// once, and folders that must not be targets (issue 19). The real binary runs with a preload
// that wraps one `fs/promises` function: at its Nth call the process kills itself (SIGKILL, as
// `kill -9` does) or waits for a file, so each point is hit exactly, with no timing.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { compress as compressDirectory, MANIFEST_FILENAME, readManifest } from '@preencode/core'
import { DEPLOY_STATE_FILENAME } from '@preencode/deploy'
import { type CollectedRun, runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteObjects } from '../../src/plan/plan.js'
import { fixtureFiles, listTree, writeSite } from '../helpers.js'

const BIN = join(import.meta.dirname, '../../../cli/dist/bin.js')
const LOCK = '.preencode-deploy.lock'

const HOOK = `
import fs from 'node:fs/promises'
import { existsSync, writeFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const [op, nth] = (process.env.PREENCODE_TEST_AT ?? '').split(':')
if (op) {
  const original = fs[op]
  let calls = 0
  fs[op] = async function (...args) {
    if (++calls === Number(nth)) {
      if (process.env.PREENCODE_TEST_RESUME === undefined) process.kill(process.pid, 'SIGKILL')
      writeFileSync(process.env.PREENCODE_TEST_PAUSED, String(process.pid))
      while (!existsSync(process.env.PREENCODE_TEST_RESUME)) await new Promise((r) => setTimeout(r, 20))
    }
    return original.apply(this, args)
  }
  syncBuiltinESMExports()
}
`

function preencode(args: string[], env: NodeJS.ProcessEnv = {}, hook?: string): Promise<CollectedRun> {
  return runCollected(process.execPath, [...(hook ? ['--import', hook] : []), BIN, ...args], {
    env: { ...process.env, CI: '1', NO_COLOR: '1', ...env },
  })
}

/** The folder holds exactly the site's objects (bytes equal), its manifest and the deploy state: no temp file, no lock. */
async function expectConverged(site: string, out: string, state = true): Promise<void> {
  const objects = siteObjects(await readManifest(site))
  const ours = [...(state ? [DEPLOY_STATE_FILENAME] : []), MANIFEST_FILENAME]
  expect(await listTree(out)).toEqual([...ours, ...objects.map((o) => o.key)].sort())
  for (const object of objects)
    expect((await readFile(join(out, object.key))).equals(await readFile(join(site, object.key))), object.key).toBe(
      true,
    )
}

/** Every page in the folder names only scripts the folder holds (the safe order). */
async function expectPagesComplete(out: string): Promise<void> {
  for (const page of ['index.html', 'about/index.html']) {
    const html = await readFile(join(out, page), 'utf8')
    for (const [, src] of html.matchAll(/src="\/([^"]+)"/g))
      expect(existsSync(join(out, src!)), `${page} -> ${src}`).toBe(true)
  }
}

describe.skipIf(!existsSync(BIN))('a local deploy interrupted, raced or misdirected (built CLI)', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let hook: string
  let v1: string
  let v2: string
  /** The target as the v1 deploy left it, copied before each run. */
  let deployedV1: string

  beforeAll(async () => {
    work = await tempDir('interrupted')
    hook = join(work.path, 'hook.mjs')
    await writeFile(hook, HOOK)
    const small = (version: number) => {
      const files = fixtureFiles(version)
      delete files['data/big.bin']
      return files
    }
    v1 = join(work.path, 'v1')
    v2 = join(work.path, 'v2')
    await writeSite(v1, small(1))
    await writeSite(v2, small(2))
    for (const site of [v1, v2])
      await compressDirectory(site, { cache: false, formats: ['gzip', 'brotli'], levels: { brotli: 5, gzip: 6 } })
    deployedV1 = join(work.path, 'deployed-v1')
    const first = await preencode(['deploy', v1, '--to', deployedV1, '--no-deltas'])
    expect(first.code, first.stderr).toBe(0)
  })
  afterAll(async () => {
    await work?.remove()
  })

  // Before each operation of a v2 deploy over v1 with --delete: the lock, copies, renames, the state, deletions.
  const points = [
    'writeFile:1',
    'link:1',
    'copyFile:1',
    'rename:1',
    'rename:7',
    'copyFile:9',
    'writeFile:2',
    'unlink:2',
  ]
  for (const point of points) {
    it(`killed -9 before ${point}: pages stay complete, the rerun converges, the site folder is untouched`, async () => {
      const out = join(work.path, `out-${point.replace(':', '-')}`)
      await cp(deployedV1, out, { recursive: true, preserveTimestamps: true })
      const siteBefore = await listTree(v2)
      const killed = await preencode(
        ['deploy', v2, '--to', out, '--delete', '--no-deltas'],
        { PREENCODE_TEST_AT: point },
        hook,
      )
      expect(killed.signal, killed.stderr).toBe('SIGKILL')
      await expectPagesComplete(out)
      const rerun = await preencode(['deploy', v2, '--to', out, '--delete', '--no-deltas'])
      expect(rerun.code, rerun.stderr).toBe(0)
      await expectConverged(v2, out)
      await expectPagesComplete(out)
      expect(await listTree(v2)).toEqual(siteBefore)
    })
  }

  it('release mode killed -9 before the symlink swap: current still serves v1; the rerun serves v2 and prunes', async () => {
    const out = join(work.path, 'out-release')
    const first = await preencode(['deploy', v1, '--to', out, '--release', '--no-deltas'])
    expect(first.code, first.stderr).toBe(0)
    const killed = await preencode(
      ['deploy', v2, '--to', out, '--release', '--no-deltas'],
      { PREENCODE_TEST_AT: 'rename:1' },
      hook,
    )
    expect(killed.signal, killed.stderr).toBe('SIGKILL')
    await expectConverged(v1, join(out, 'current'), false)
    await expectPagesComplete(join(out, 'current'))
    const rerun = await preencode(['deploy', v2, '--to', out, '--release', '--keep', '1', '--no-deltas'])
    expect(rerun.code, rerun.stderr).toBe(0)
    await expectConverged(v2, join(out, 'current'), false)
    expect((await readdir(out)).sort()).toEqual([DEPLOY_STATE_FILENAME, 'current', 'releases'])
    expect(await readdir(join(out, 'releases'))).toHaveLength(1)
  })

  it('a second deploy into the folder while one runs is refused with one line naming the holder', async () => {
    const out = join(work.path, 'out-race')
    await cp(deployedV1, out, { recursive: true, preserveTimestamps: true })
    const paused = join(work.path, 'paused')
    const resume = join(work.path, 'resume')
    const first = preencode(
      ['deploy', v2, '--to', out, '--delete', '--no-deltas'],
      { PREENCODE_TEST_AT: 'rename:3', PREENCODE_TEST_PAUSED: paused, PREENCODE_TEST_RESUME: resume },
      hook,
    )
    // The hook creates the file, then writes its pid: wait for the pid, not just the file.
    let pid = ''
    while (!pid) {
      await new Promise((r) => setTimeout(r, 20))
      pid = existsSync(paused) ? await readFile(paused, 'utf8') : ''
    }
    const second = await preencode(['deploy', v1, '--to', out, '--no-deltas'])
    await writeFile(resume, '')
    const ended = await first
    expect(second.stderr).toMatch(
      new RegExp(
        `^\\[preencode\\] \\[deploy\\] local folder ${out} is locked by another deploy \\(pid ${pid} on host ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); wait for it to finish`,
      ),
    )
    expect(second.stderr.trim().split('\n')).toHaveLength(1)
    expect(second.code).toBe(1)
    expect(ended.code, ended.stderr).toBe(0)
    await expectConverged(v2, out)
  })

  it('a lock left by a process that is gone is taken over with a note; one from another host is refused', async () => {
    const out = join(work.path, 'out-stale')
    await cp(deployedV1, out, { recursive: true, preserveTimestamps: true })
    const gone = spawn(process.execPath, ['-e', ''])
    const pid = await new Promise<number>((r) => gone.on('exit', () => r(gone.pid!)))
    await writeFile(join(out, LOCK), JSON.stringify({ pid, host: hostname(), time: Date.now(), deployId: 'x' }))
    const run = await preencode(['deploy', v2, '--to', out, '--delete', '--no-deltas'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      new RegExp(`took over the lock of a deploy that is no longer running \\(pid ${pid} on host`),
    )
    await expectConverged(v2, out)

    await writeFile(join(out, LOCK), JSON.stringify({ pid: 1, host: 'build-7.example', time: 0, deployId: 'x' }))
    const refused = await preencode(['deploy', v1, '--to', out, '--no-deltas'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /is locked by another deploy \(pid 1 on host build-7\.example, since 1970-01-01T00:00:00\.000Z\).*delete .*\.preencode-deploy\.lock/,
    )
    await rm(join(out, LOCK))
  })

  it('--delete removes what a killed deploy left, and a dry run leaves it', async () => {
    const out = join(work.path, 'out-leftover')
    await cp(deployedV1, out, { recursive: true, preserveTimestamps: true })
    const leftovers = ['.preencode-tmp-0123456789ab', 'assets/.preencode-tmp-a1b2c3d4e5f6']
    for (const path of leftovers) await writeFile(join(out, path), 'half a file')
    await mkdir(join(out, 'notes'), { recursive: true })
    await writeFile(join(out, 'notes/.preencode-tmp-mine.txt'), 'not ours: the name does not match')
    const dry = await preencode(['deploy', v1, '--to', out, '--dry-run', '--delete'])
    expect(dry.code, dry.stderr).toBe(0)
    for (const path of leftovers) expect(existsSync(join(out, path)), path).toBe(true)
    const run = await preencode(['deploy', v1, '--to', out, '--delete', '--no-deltas'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/removed 2 temporary files left by an interrupted deploy/)
    for (const path of leftovers) expect(existsSync(join(out, path)), path).toBe(false)
    expect(existsSync(join(out, 'notes/.preencode-tmp-mine.txt'))).toBe(true)
  })
})
