// `preencode compress` runs its work in a second process with glibc's mmap threshold fixed
// (src/malloc-tuning.ts says why); other commands, and users who set it, keep one process.
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '@preencode/test-utils'
import type { CompressReport } from '@preencode/core'
import { MALLOC_MMAP_THRESHOLD, runsOnGlibc, wantsMallocTuning } from '../src/malloc-tuning.ts'

const BIN = resolve(import.meta.dirname, '../dist/bin.js')

describe('wantsMallocTuning', () => {
  const yes = (): boolean => true
  const no = (): boolean => false
  it('is for compress on glibc only, and never overrides what the environment sets', () => {
    expect(wantsMallocTuning(['compress', 'dist'], {}, yes)).toBe(true)
    expect(wantsMallocTuning(['--quiet', 'compress', 'dist'], {}, yes)).toBe(true)
    expect(wantsMallocTuning(['compress', 'dist'], {}, no)).toBe(false)
    expect(wantsMallocTuning(['config', 'nginx', 'dist'], {}, yes)).toBe(false)
    expect(wantsMallocTuning(['deploy', 'dist'], {}, yes)).toBe(false)
    expect(wantsMallocTuning([], {}, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { MALLOC_MMAP_THRESHOLD_: '65536' }, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { PREENCODE_MALLOC_TUNING: 'off' }, yes)).toBe(false)
  })
})

/**
 * A site folder and a preload script (for NODE_OPTIONS) that appends `expression`, evaluated in
 * every Node process the CLI starts, to `<tmp>/seen.txt`.
 */
async function siteWithProbe(tmp: string, expression: string) {
  const dir = join(tmp, 'site')
  const probe = join(tmp, 'probe.mjs')
  const seen = join(tmp, 'seen.txt')
  await writeFile(
    probe,
    `import { appendFileSync } from 'node:fs'\nappendFileSync(${JSON.stringify(seen)}, ${expression} + '\\n')\n`,
  )
  await mkdir(dir)
  return { dir, nodeOptions: `--import=${probe}`, seen }
}

describe.runIf(runsOnGlibc())('preencode compress on glibc', () => {
  /**
   * Runs the CLI with a preload that records, for every Node process it starts, the threshold
   * that process was started with; returns those values and the run's JSON report.
   */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
    const tmp = await tempDir('cli-malloc')
    try {
      const { dir, nodeOptions, seen } = await siteWithProbe(tmp.path, "(process.env.MALLOC_MMAP_THRESHOLD_ ?? '-')")
      await writeFile(join(dir, 'index.html'), '<!doctype html><p>preencode</p>\n'.repeat(200))
      const result = spawnSync(process.execPath, [BIN, ...args.map((a) => (a === '<dir>' ? dir : a))], {
        cwd: tmp.path,
        encoding: 'utf8',
        env: {
          ...process.env,
          NO_COLOR: '1',
          XDG_CACHE_HOME: join(tmp.path, 'cache'),
          NODE_OPTIONS: nodeOptions,
          MALLOC_MMAP_THRESHOLD_: undefined,
          GLIBC_TUNABLES: undefined,
          ...env,
        },
      })
      const processes = (await readFile(seen, 'utf8')).trim().split('\n')
      return { status: result.status, stdout: result.stdout, stderr: result.stderr, processes }
    } finally {
      await tmp.remove()
    }
  }

  it('compresses in a second process started with the threshold, and reports through it', async () => {
    const result = await run(['compress', '<dir>', '--json'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.processes).toEqual(['-', MALLOC_MMAP_THRESHOLD])
    const report = JSON.parse(result.stdout) as CompressReport
    expect(report.formats.map((f) => f.files)).toEqual([1, 1, 1])
    expect(report.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024)
  })

  it("passes the child's exit status on, and keeps one process when the user set the threshold", async () => {
    const failed = await run(['compress', '/nonexistent-preencode-dir'])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toMatch(/nonexistent-preencode-dir/)
    expect(failed.processes).toEqual(['-', MALLOC_MMAP_THRESHOLD])
    const own = await run(['compress', '<dir>', '--quiet'], { MALLOC_MMAP_THRESHOLD_: '65536' })
    expect(own.status).toBe(0)
    expect(own.processes).toEqual(['65536'])
  })

  it('the second process ends when the first is killed outright (SIGKILL, as by a CI timeout)', async () => {
    const tmp = await tempDir('cli-malloc-kill')
    try {
      const { dir, nodeOptions, seen: pids } = await siteWithProbe(tmp.path, 'process.pid')
      // Enough brotli-11 work that the run is still busy when the first process is killed.
      let seed = 1
      const word = (): string =>
        ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'][(seed = (seed * 16807) % 2147483647) % 6]!
      for (let i = 0; i < 80; i++)
        await writeFile(join(dir, `page-${i}.html`), Array.from({ length: 40_000 }, word).join(' '))
      const parent = spawn(process.execPath, [BIN, 'compress', dir, '--no-cache', '--formats', 'brotli', '--quiet'], {
        cwd: tmp.path,
        env: { ...process.env, NODE_OPTIONS: nodeOptions, MALLOC_MMAP_THRESHOLD_: undefined },
        stdio: 'ignore',
      })
      const exited = new Promise((done) => parent.once('exit', done))
      const alive = (pid: number): boolean => {
        try {
          process.kill(pid, 0)
          return true
        } catch {
          return false
        }
      }
      let child = 0
      while (child === 0) {
        await new Promise((done) => setTimeout(done, 50))
        const seen = await readFile(pids, 'utf8').catch(() => '')
        child = Number(seen.trim().split('\n')[1] ?? 0)
      }
      expect(alive(child)).toBe(true)
      parent.kill('SIGKILL')
      await exited
      // A liveness bound, not a timing target: it checks for its parent every 0.5 s.
      for (let i = 0; i < 30 && alive(child); i++) await new Promise((done) => setTimeout(done, 100))
      expect(alive(child)).toBe(false)
    } finally {
      await tmp.remove()
    }
  }, 60_000)
})
