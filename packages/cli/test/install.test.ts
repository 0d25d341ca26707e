// How people get `preencode` before it is on the registry: the README's PATH line after
// scripts/setup.sh, `pnpm exec` in the repository, and the two ways docs/getting-started.md
// gives for another project (`link:` and packed tarballs). Each runs the real binary on a site.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const PNPM = join(REPO_ROOT, '.tools', 'pnpm', 'node_modules', '.bin', 'pnpm')
const NODE_BIN = join(REPO_ROOT, '.tools', 'node', 'node_modules', '.bin')

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A folder outside the repository (no package.json above it) holding a one-page site. */
async function siteOutsideRepo(): Promise<{ work: string; dir: string }> {
  const tmp = await tempDir('install')
  cleanups.push(tmp.remove)
  const dir = join(tmp.path, 'site')
  await mkdir(dir, { recursive: true })
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><title>t</title>${'<p>served pre-compressed</p>\n'.repeat(200)}`,
  )
  return { work: tmp.path, dir }
}

/**
 * A fresh login-less shell: no inherited PATH beyond the system's, nothing from this test
 * runner's environment but a throw-away HOME (the user cache goes there).
 */
function freshShell(script: string, home: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('/bin/bash', ['--noprofile', '--norc', '-c', script], {
    encoding: 'utf8',
    env: { HOME: home, PATH: '/usr/bin:/bin', NO_COLOR: '1' },
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** The `export PATH=…` line exactly as README.md gives it. */
async function readmePathLine(): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8')
  const line = /`(export PATH=[^`]+)`/.exec(readme)?.[1]
  if (!line) throw new Error('README.md has no `export PATH=…` line')
  return line
}

describe('the CLI from anywhere', () => {
  it('the README PATH line puts `preencode` on PATH in a fresh shell; it runs from any folder', async () => {
    expect(
      existsSync(join(NODE_BIN, 'preencode')),
      'scripts/setup.sh writes .tools/node/node_modules/.bin/preencode',
    ).toBe(true)
    const { work, dir } = await siteOutsideRepo()
    const line = await readmePathLine()
    const run = freshShell(
      `cd '${REPO_ROOT}' && ${line} && cd '${work}' && command -v preencode && preencode compress site && preencode compress site`,
      work,
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe(join(NODE_BIN, 'preencode'))
    expect(run.stdout).toMatch(/preencode: 1 of 1 files -> 3 variants .*\(3 compressed, 0 from cache\)/)
    // No project here: the second run hits the user cache (~/.cache/preencode), no node_modules appears.
    expect(run.stdout).toMatch(/all 3 cached, nothing compressed/)
    expect(existsSync(join(work, '.cache', 'preencode', 'v1'))).toBe(true)
    expect(existsSync(join(work, 'node_modules'))).toBe(false)
    expect(
      brotliDecompressSync(await readFile(join(dir, 'index.html.br'))).equals(await readFile(join(dir, 'index.html'))),
    ).toBe(true)
  })

  it('`pnpm exec preencode` works at the repository root', () => {
    const run = spawnSync(PNPM, ['exec', 'preencode', '--version'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${NODE_BIN}:/usr/bin:/bin` },
    })
    expect(run.stderr).toBe('')
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('using preencode before the packages are published', () => {
  /** `pnpm install` from the local store only: every dependency is already there from the workspace. */
  function install(project: string): void {
    const run = spawnSync(PNPM, ['install', '--offline'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${NODE_BIN}:/usr/bin:/bin` },
    })
    expect(run.status, run.stdout + run.stderr).toBe(0)
  }
  function compressWithProjectBin(project: string): string {
    const run = spawnSync(PNPM, ['exec', 'preencode', 'compress', 'site', '--no-cache'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${NODE_BIN}:/usr/bin:/bin`, NO_COLOR: '1' },
    })
    expect(run.status, run.stderr).toBe(0)
    return run.stdout
  }

  it('`link:` to the package folder', async () => {
    const { work } = await siteOutsideRepo()
    await writeFile(
      join(work, 'package.json'),
      JSON.stringify({ private: true, devDependencies: { preencode: `link:${join(REPO_ROOT, 'packages', 'cli')}` } }),
    )
    install(work)
    expect(compressWithProjectBin(work)).toMatch(/1 of 1 files -> 3 variants/)
    expect(existsSync(join(work, 'site', 'index.html.zst'))).toBe(true)
  })

  it('packed tarballs (scripts/pack.sh) with the overrides it prints', async () => {
    const { work } = await siteOutsideRepo()
    const tarballs = join(work, 'tarballs')
    const pack = spawnSync('/bin/bash', [join(REPO_ROOT, 'scripts', 'pack.sh'), tarballs], { encoding: 'utf8' })
    expect(pack.status, pack.stderr).toBe(0)
    // The printed overrides block, verbatim, is the project's pnpm-workspace.yaml.
    const overrides = pack.stdout
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n')
    expect(overrides).toMatch(/'@preencode\/core': file:/)
    await writeFile(join(work, 'pnpm-workspace.yaml'), overrides)
    const version = (
      JSON.parse(await readFile(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }
    ).version
    await writeFile(
      join(work, 'package.json'),
      JSON.stringify({
        private: true,
        devDependencies: { preencode: `file:${join(tarballs, `preencode-${version}.tgz`)}` },
      }),
    )
    install(work)
    expect(compressWithProjectBin(work)).toMatch(/1 of 1 files -> 3 variants/)
    // A real install, not a link back into the repository.
    expect(existsSync(join(work, 'node_modules', '.pnpm'))).toBe(true)
  })
})
