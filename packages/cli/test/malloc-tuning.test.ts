// `preencode compress` and `deploy` replace their process image once with glibc's mmap threshold
// fixed (src/malloc-tuning.ts says why): one process, one pid, no supervisor. Other commands,
// users who set it, and runs under an inspector keep the image they started with.
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { CompressReport } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { MALLOC_MMAP_THRESHOLD, runsOnGlibc, wantsMallocTuning } from '../src/malloc-tuning.ts'

const BIN = resolve(import.meta.dirname, '../dist/bin.js')

describe('wantsMallocTuning', () => {
  const yes = (): boolean => true
  const no = (): boolean => false
  it('is for compress and deploy on glibc only, and never overrides what the environment sets', () => {
    expect(wantsMallocTuning(['compress', 'dist'], {}, yes)).toBe(true)
    expect(wantsMallocTuning(['--quiet', 'compress', 'dist'], {}, yes)).toBe(true)
    expect(wantsMallocTuning(['deploy', 'dist'], {}, yes)).toBe(true)
    expect(wantsMallocTuning(['compress', 'dist'], {}, no)).toBe(false)
    expect(wantsMallocTuning(['config', 'nginx', 'dist'], {}, yes)).toBe(false)
    expect(wantsMallocTuning(['verify', 'http://127.0.0.1', 'dist'], {}, yes)).toBe(false)
    expect(wantsMallocTuning([], {}, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { MALLOC_MMAP_THRESHOLD_: '65536' }, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, yes)).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { PREENCODE_MALLOC_TUNING: 'off' }, yes)).toBe(false)
  })
  it('keeps the image a debugger is attached to', () => {
    const yes = (): boolean => true
    expect(wantsMallocTuning(['compress', 'dist'], {}, yes, ['--inspect'])).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], {}, yes, ['--inspect-brk=127.0.0.1:9229'])).toBe(false)
    expect(wantsMallocTuning(['compress', 'dist'], { NODE_OPTIONS: '--max-old-space-size=4096 --inspect' }, yes)).toBe(
      false,
    )
    expect(wantsMallocTuning(['compress', 'dist'], {}, yes, ['--max-old-space-size=4096'])).toBe(true)
  })
})

/**
 * A site folder and a preload script (for NODE_OPTIONS) that appends `expression`, evaluated in
 * every Node process image the CLI runs, to `<tmp>/seen.txt`.
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

const PROBE = "process.pid + ' ' + (process.env.MALLOC_MMAP_THRESHOLD_ ?? '-')"

describe.runIf(runsOnGlibc())('preencode compress on glibc', () => {
  /**
   * Runs the CLI with a preload that records, for every process image it runs, its pid and the
   * threshold it was started with; returns those and the run's output.
   */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}, execArgv: string[] = []) {
    const tmp = await tempDir('cli-malloc')
    try {
      const { dir, nodeOptions, seen } = await siteWithProbe(tmp.path, PROBE)
      await writeFile(join(dir, 'index.html'), '<!doctype html><p>preencode</p>\n'.repeat(200))
      const result = spawnSync(process.execPath, [...execArgv, BIN, ...args.map((a) => (a === '<dir>' ? dir : a))], {
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
      const images = (await readFile(seen, 'utf8')).trim().split('\n')
      return {
        status: result.status,
        pid: result.pid,
        stdout: result.stdout,
        stderr: result.stderr,
        pids: images.map((line) => Number(line.split(' ')[0])),
        thresholds: images.map((line) => line.split(' ')[1]),
      }
    } finally {
      await tmp.remove()
    }
  }

  it('compresses in the same process, re-imaged once with the threshold, and reports through it', async () => {
    const result = await run(['compress', '<dir>', '--json'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.thresholds).toEqual(['-', MALLOC_MMAP_THRESHOLD])
    // One process: both images are the pid the caller started (no supervisor, no child).
    expect(result.pids).toEqual([result.pid, result.pid])
    const report = JSON.parse(result.stdout) as CompressReport
    expect(report.formats.map((f) => f.files)).toEqual([1, 1, 1])
    expect(report.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024)
  })

  it('passes the exit status on, and keeps one image when the user set the threshold or debugs', async () => {
    const failed = await run(['compress', '/nonexistent-preencode-dir'])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toMatch(/nonexistent-preencode-dir/)
    expect(failed.thresholds).toEqual(['-', MALLOC_MMAP_THRESHOLD])
    const own = await run(['compress', '<dir>', '--quiet'], { MALLOC_MMAP_THRESHOLD_: '65536' })
    expect(own.status).toBe(0)
    expect(own.thresholds).toEqual(['65536'])
    const inspected = await run(['compress', '<dir>', '--quiet'], {}, ['--inspect=127.0.0.1:0'])
    expect(inspected.status).toBe(0)
    expect(inspected.thresholds).toEqual(['-'])
    // Exactly one inspector was started.
    expect(inspected.stderr.match(/Debugger listening/g)).toHaveLength(1)
  })

  it('a SIGKILL of the pid the caller started ends the whole run (as by a CI timeout)', async () => {
    const tmp = await tempDir('cli-malloc-kill')
    try {
      const { dir, nodeOptions, seen } = await siteWithProbe(tmp.path, PROBE)
      // Enough brotli-11 work that the run is still busy when it is killed.
      let seed = 1
      const word = (): string =>
        ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'][(seed = (seed * 16807) % 2147483647) % 6]!
      for (let i = 0; i < 80; i++)
        await writeFile(join(dir, `page-${i}.html`), Array.from({ length: 40_000 }, word).join(' '))
      const cli = spawn(process.execPath, [BIN, 'compress', dir, '--no-cache', '--formats', 'brotli', '--quiet'], {
        cwd: tmp.path,
        env: { ...process.env, NODE_OPTIONS: nodeOptions, MALLOC_MMAP_THRESHOLD_: undefined },
        stdio: 'ignore',
      })
      const exited = new Promise<NodeJS.Signals | null>((done) => cli.once('exit', (_code, signal) => done(signal)))
      // Wait for the tuned image to be running: the second line of the probe.
      let lines: string[] = []
      while (lines.length < 2) {
        await new Promise((done) => setTimeout(done, 50))
        lines = (await readFile(seen, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
      }
      expect(lines.map((line) => Number(line.split(' ')[0]))).toEqual([cli.pid, cli.pid])
      cli.kill('SIGKILL')
      expect(await exited).toBe('SIGKILL')
      // Nothing of the run is left: the only pid it ever had is gone.
      expect(() => process.kill(cli.pid!, 0)).toThrow()
    } finally {
      await tmp.remove()
    }
  }, 60_000)
})
