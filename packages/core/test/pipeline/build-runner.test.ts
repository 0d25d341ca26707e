// The build runner is the body of both plugins' closeBundle: its behaviour is theirs.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type BuildLogger,
  type CompressReport,
  createBuildRunner,
  type Manifest,
  readManifest,
  resolveBuildOptions,
  wantsColor,
} from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textOf } from '../fixtures.js'

function recorder(): BuildLogger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = []
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  }
}

describe('build runner', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('runner')
  })
  afterAll(async () => {
    await dir.remove()
  })

  async function site(name: string): Promise<string> {
    const root = join(dir.path, name)
    await mkdir(join(root, 'dist'), { recursive: true })
    await writeFile(join(root, 'dist/app.js'), textOf(5_000))
    return root
  }

  it('colours only on a TTY, never with NO_COLOR, in CI or on a dumb terminal', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true)
    expect(wantsColor({ isTTY: false }, {})).toBe(false)
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false)
    expect(wantsColor({ isTTY: true }, { CI: 'true' })).toBe(false)
    expect(wantsColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false)
  })

  it('resolves the shared options once: report validated, integration excludes added, cache from the root', () => {
    const root = join(dir.path, 'project')
    const { report, compress, rest } = resolveBuildOptions(
      { report: 'json', exclude: ['a/**'], cache: 'c', other: 1 } as never,
      { root, component: 'vite', exclude: ['.vite/**'] },
      ['other' as never],
    )
    expect(report).toBe('json')
    expect(compress.exclude).toEqual(['a/**', '.vite/**'])
    expect(compress.cacheDir).toBe(join(root, 'c'))
    expect(rest).toEqual({ other: 1 })
    expect(() => resolveBuildOptions({ report: 'yes' as never }, { root, component: 'rollup' })).toThrow(
      /\[rollup\].*`report` is "yes"; it accepts true, false, 'json' or 'html'/,
    )
  })

  it('compresses, reports as JSON and writes server configs until the manifest lists them', async () => {
    const root = await site('configs')
    const dist = join(root, 'dist')
    const { report, compress, force } = resolveBuildOptions(
      { report: 'json', cache: false },
      { root, component: 'rollup' },
    )
    const seen: Manifest[] = []
    const runner = createBuildRunner({
      options: { report, compress, force },
      root,
      // A config inside the output names every file the manifest lists.
      async writeServerConfigs(manifest) {
        seen.push(manifest)
        const text = manifest.files.map((f) => f.path).join('\n')
        const path = join(dist, 'site.conf')
        if ((await readFile(path, 'utf8').catch(() => '')) === text) return []
        await writeFile(path, text)
        return [path]
      },
    })
    const logger = recorder()
    await runner.run({ dirs: [dist], watch: false, logger, color: false })
    const reports = logger.lines
      .filter((l) => l.message.startsWith('{'))
      .map((l) => JSON.parse(l.message) as CompressReport)
    expect(reports.map((r) => r.dir)).toEqual([dist])
    const manifest = await readManifest(dist)
    expect(manifest.files.map((f) => f.path)).toEqual(['app.js', 'site.conf'])
    expect(await readFile(join(dist, 'site.conf'), 'utf8')).toBe('app.js\nsite.conf')
    expect(seen.length).toBe(3) // first text, the text naming itself, then stable
  })

  it('in watch mode logs a failure and keeps going; otherwise throws it', async () => {
    const root = await site('failing')
    const options = resolveBuildOptions({ report: false, cache: false }, { root, component: 'vite' })
    const runner = createBuildRunner({
      options,
      root,
      writeServerConfigs: async () => {
        throw new Error('generator broke')
      },
    })
    const logger = recorder()
    await expect(runner.run({ dirs: [join(root, 'dist')], watch: false, logger, color: false })).rejects.toThrow(
      'generator broke',
    )
    await runner.run({ dirs: [join(root, 'dist')], watch: true, logger, color: false })
    expect(logger.lines).toEqual([{ level: 'error', message: '[preencode] generator broke' }])
  })
})
