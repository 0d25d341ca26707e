// Locks a deploy must take over by itself (issue 30 item 9): one naming the new deploy's own pid
// (a container with a fixed hostname restarts with the same pid; its start time differs), and an
// empty or corrupt one (no deploy writes a lock that way). Before, each was refused until
// deleted by hand ("pid ? on host ?").
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compress, readManifest } from '@preencode/core'
import { type CollectedRun, runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteObjects } from '../../src/plan/plan.js'
import { fixtureFiles, listTree, writeSite } from '../helpers.js'

const BIN = join(import.meta.dirname, '../../../cli/dist/bin.js')
const LOCK = '.preencode-deploy.lock'

// Writes, before the deploy starts, a lock naming this very process as a killed deploy did: same
// pid and host, another start time.
const OWN_PID_LOCK = `
import { writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
writeFileSync(process.env.PREENCODE_TEST_LOCK, JSON.stringify({ pid: process.pid, host: hostname(), time: 0, deployId: 'old', start: '1' }))
`

function deployTo(site: string, out: string, hook?: string, env: NodeJS.ProcessEnv = {}): Promise<CollectedRun> {
  return runCollected(
    process.execPath,
    [...(hook ? ['--import', hook] : []), BIN, 'deploy', site, '--to', out, '--no-deltas'],
    { env: { ...process.env, CI: '1', NO_COLOR: '1', ...env } },
  )
}

describe.skipIf(!existsSync(BIN))('a stale lock in a local target is taken over with one note', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let site: string
  let expected: string[]

  beforeAll(async () => {
    work = await tempDir('stale-lock')
    site = join(work.path, 'site')
    const files = fixtureFiles(1)
    delete files['data/big.bin']
    await writeSite(site, files)
    await compress(site, { cache: false, formats: ['gzip'] })
    expected = siteObjects(await readManifest(site)).map((o) => o.key)
  })
  afterAll(async () => {
    await work?.remove()
  })

  const cases: [string, string, RegExp][] = [
    ['empty', '', /took over a lock that was empty \(.*\.preencode-deploy\.lock\)/],
    ['corrupt', '{"pid": 12', /took over a lock that was not a readable lock \(.*\.preencode-deploy\.lock\)/],
    ['not a lock', '[1, 2]', /took over a lock that was not a readable lock/],
  ]
  for (const [name, text, note] of cases) {
    it(`${name}: the deploy runs, says so in one line, and leaves no lock`, async () => {
      const out = join(work.path, `out-${name.replace(/ /g, '-')}`)
      await mkdir(out, { recursive: true })
      await writeFile(join(out, LOCK), text)
      const run = await deployTo(site, out)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toMatch(note)
      expect(run.stderr.split('\n').filter((line) => /lock/.test(line))).toHaveLength(1)
      expect(await listTree(out)).toEqual(
        ['.preencode-deploy-state.json', '.preencode-manifest.json', ...expected].sort(),
      )
    })
  }

  it('naming the new deploy’s own pid with another start time: taken over, not refused', async () => {
    const out = join(work.path, 'out-own-pid')
    await mkdir(out, { recursive: true })
    const hook = join(work.path, 'own-pid.mjs')
    await writeFile(hook, OWN_PID_LOCK)
    const run = await deployTo(site, out, hook, { PREENCODE_TEST_LOCK: join(out, LOCK) })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/took over the lock of a deploy that is no longer running \(pid \d+ on host /)
    expect(await listTree(out)).toEqual(
      ['.preencode-deploy-state.json', '.preencode-manifest.json', ...expected].sort(),
    )
  })
})
