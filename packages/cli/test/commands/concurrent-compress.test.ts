// Two `compress --pages` runs on one folder at once (issue 29 item 3: a watch rebuild overlapping
// a manual run, two CI steps). The first run is paused, by a preload that wraps `rename`, just
// before it renames its first delta into a `.dict/` folder; the second runs meanwhile. Before the
// lock, the second deleted the first's temporary files and the first crashed with an ENOENT stack
// trace; now the second is refused with one line and the first finishes.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { runCollected } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { BIN, cli, listing, page, put, readManifestOf, workDirs } from '../lifecycle-helpers.js'

const { workDir } = workDirs('concurrent-compress')

const HOOK = `
import fs from 'node:fs/promises'
import { existsSync, writeFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const original = fs.rename
let paused = false
fs.rename = async function (from, to) {
  if (!paused && String(to).includes('.dict/')) {
    paused = true
    writeFileSync(process.env.PREENCODE_TEST_PAUSED, String(process.pid))
    while (!existsSync(process.env.PREENCODE_TEST_RESUME)) await new Promise((r) => setTimeout(r, 20))
  }
  return original.call(this, from, to)
}
syncBuiltinESMExports()
`

const ENV = { NO_COLOR: '1', CI: '1', PREENCODE_MALLOC_TUNING: 'off' }

describe('two compress runs on one folder at once', () => {
  it('the second is refused with one line naming the first; the first finishes; no temporary file stays', async () => {
    const work = await workDir()
    const dir = join(work, 'site')
    for (let i = 0; i < 6; i++) await put(dir, `docs/p${i}.html`, page(`page ${i}`).repeat(4))
    const hook = join(work, 'hook.mjs')
    await writeFile(hook, HOOK)
    const paused = join(work, 'paused')
    const resume = join(work, 'resume')
    const args = ['compress', dir, '--pages', '--no-cache']
    const first = runCollected(process.execPath, ['--import', hook, BIN, ...args], {
      cwd: work,
      env: { ...process.env, ...ENV, PREENCODE_TEST_PAUSED: paused, PREENCODE_TEST_RESUME: resume },
    })
    // The hook creates the file, then writes its pid: wait for the pid, not just the file.
    let pid = ''
    while (!pid) {
      await new Promise((r) => setTimeout(r, 20))
      pid = existsSync(paused) ? await readFile(paused, 'utf8') : ''
    }
    const second = cli(args, work, ENV)
    await writeFile(resume, '')
    const ended = await first

    expect(second.stderr).toMatch(
      new RegExp(`is locked by another compress run \\(pid ${pid} on host ${hostname()}, since [\\d-]+T[\\d:.]+Z\\)`),
    )
    expect(second.stderr.trim().split('\n'), second.stderr).toHaveLength(1)
    expect(second.status).toBe(1)
    expect(ended.stderr).not.toMatch(/\n\s+at /)
    expect(ended.code, ended.stderr).toBe(0)
    const files = await listing(dir)
    expect(files.filter((path) => /\.tmp-|\.lock$/.test(path))).toEqual([])
    const manifest = await readManifestOf(dir)
    expect(manifest.files.some((file) => (file.deltas ?? []).length > 0)).toBe(true)
    for (const delta of manifest.files.flatMap((file) => file.deltas ?? []))
      expect(files, delta.path).toContain(delta.path)

    // A third run finds nothing to clean up, and no lock in its way.
    const third = cli(args, work, ENV)
    expect(third.status, third.stderr).toBe(0)
    expect(third.stderr).not.toMatch(/temp files|took over/)
  })
})
