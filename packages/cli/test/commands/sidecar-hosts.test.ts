// `preencode compress` on hosts that compress on their own (their documented build variables
// set in the environment of the real binary): one line, nothing written; `--force` writes.
import { spawnSync } from 'node:child_process'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')
const HOST_VARIABLES = ['NETLIFY', 'VERCEL', 'CF_PAGES']

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function site(): Promise<{ work: string; dir: string }> {
  const tmp = await tempDir('cli-hosts')
  cleanups.push(tmp.remove)
  const dir = join(tmp.path, 'dist')
  await mkdir(join(dir, 'assets'), { recursive: true })
  await writeFile(join(dir, 'index.html'), `<!doctype html>${'<p>a page that compresses well</p>\n'.repeat(100)}`)
  await writeFile(join(dir, 'assets', 'app-3f2a9c1b.js'), `export const a = ${JSON.stringify('x'.repeat(4000))}\n`)
  return { work: tmp.path, dir }
}

function compress(work: string, args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !HOST_VARIABLES.includes(k)))
  return spawnSync(process.execPath, [BIN, 'compress', 'dist', '--no-cache', ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...clean, NO_COLOR: '1', XDG_CACHE_HOME: join(work, 'user-cache'), ...env },
  })
}

const files = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).sort()

describe('preencode compress on hosts that ignore sidecars', () => {
  it.each([
    ['Netlify', { NETLIFY: 'true' }, 'NETLIFY=true'],
    ['Vercel', { VERCEL: '1' }, 'VERCEL=1'],
    ['Cloudflare Pages', { CF_PAGES: '1' }, 'CF_PAGES=1'],
  ])('%s: one line on stderr, no sidecars and no manifest; --force writes them', async (name, env, variable) => {
    const { work, dir } = await site()
    const before = await files(dir)
    const skipped = compress(work, [], env)
    expect(skipped.status).toBe(0)
    expect(skipped.stdout).toBe('')
    // As from a plugin: the line is a warning (nothing was written).
    expect(skipped.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warning: preencode: ${name} \\(${variable}\\) compresses responses itself .* --force writes them anyway`,
        ),
      ),
    ])
    expect(await files(dir)).toEqual(before)

    const forced = compress(work, ['--force'], env)
    expect(forced.status, forced.stderr).toBe(0)
    expect(forced.stderr).not.toContain('compresses responses itself')
    const after = await files(dir)
    for (const suffix of ['.br', '.gz', '.zst']) expect(after).toContain(`index.html${suffix}`)
    expect(after).toContain('.preencode-manifest.json')
  })

  it('elsewhere (GitHub Actions included) compresses as usual', async () => {
    const { work, dir } = await site()
    const run = compress(work, ['--quiet'], { GITHUB_ACTIONS: 'true', CI: 'true' })
    expect(run.status, run.stderr).toBe(0)
    expect(await files(dir)).toContain('index.html.br')
  })
})
