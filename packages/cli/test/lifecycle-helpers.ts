// What the lifecycle suites share: the real binary, a small site, and checks on what is on disk.
// PREENCODE_TEST_BIN runs the same tests against another build (to see them fail on main).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { tempDir } from '@preencode/test-utils'
import { afterEach, expect } from 'vitest'

export const BIN = process.env.PREENCODE_TEST_BIN ?? resolve(import.meta.dirname, '../dist/bin.js')

/** Tests that chown to nobody need root. */
export const IS_ROOT = process.getuid?.() === 0
export const NOBODY = 65534

/**
 * Call once at the top of a test file: `workDir()` gives a fresh temp dir removed after its test;
 * `cleanups` takes more undo steps, run in order after each test.
 */
export function workDirs(prefix: string): { workDir: () => Promise<string>; cleanups: (() => Promise<void>)[] } {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })
  const workDir = async (): Promise<string> => {
    const tmp = await tempDir(prefix)
    cleanups.push(tmp.remove)
    return tmp.path
  }
  return { workDir, cleanups }
}

export interface Result {
  status: number | null
  stdout: string
  stderr: string
}

export function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Result {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', ...env },
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/**
 * Runs the binary and SIGKILLs it once `when` returns true for what it has printed so far (or
 * for the state of the disk, polled every 20 ms). Resolves true if the kill landed, false if the
 * run finished first.
 */
export function cliKilled(
  args: string[],
  cwd: string,
  when: (output: string) => boolean | Promise<boolean>,
): Promise<boolean> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    // One process: `compress` otherwise runs again in a child (malloc-tuning.ts), which a SIGKILL
    // of this one leaves running for up to half a second, long enough to finish a small site.
    env: { ...process.env, NO_COLOR: '1', CI: '', PREENCODE_MALLOC_TUNING: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const poll = setInterval(() => {
    void Promise.resolve(when(output)).then((yes) => {
      if (yes && child.exitCode === null) child.kill('SIGKILL')
    })
  }, 20)
  return new Promise((done, reject) => {
    child.on('error', reject)
    child.on('exit', (_code, signal) => {
      clearInterval(poll)
      done(signal === 'SIGKILL')
    })
  })
}

export async function put(root: string, path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), content)
}

export const page = (title: string): string =>
  `<!doctype html><html><head><title>${title}</title></head><body>\n${`<p>${title}: preencode writes .gz, .br and .zst beside each file.</p>\n`.repeat(60)}</body></html>\n`

/** A small site of eight objects once compressed: two pages and a script, with variants. */
export async function site(work: string): Promise<string> {
  const dir = join(work, 'site')
  await put(dir, 'index.html', page('home v1'))
  await put(dir, 'about/index.html', page('about'))
  await put(
    dir,
    'assets/app-3f2a9c1b.js',
    `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i })))}\n`,
  )
  await put(dir, 'photo.png', Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919) % 251)))
  return dir
}

/** Every file under `dir`, relative, sorted. */
export async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
}

/** Each of a file's variants present in `dir` decodes to exactly `expected`. */
export async function expectVariantsDecodeTo(dir: string, path: string, expected: Buffer): Promise<void> {
  const decoders = { '.br': brotliDecompressSync, '.gz': gunzipSync, '.zst': zstdDecompressSync }
  for (const [suffix, decode] of Object.entries(decoders)) {
    const file = join(dir, `${path}${suffix}`)
    expect(existsSync(file), `${path}${suffix} in ${dir}`).toBe(true)
    expect(decode(await readFile(file)).equals(expected), `${path}${suffix} decodes to the current ${path}`).toBe(true)
  }
}

export interface ManifestShape {
  files: {
    path: string
    sha256: string
    variants: { path: string }[]
    useAsDictionary?: string
    deltas?: { path: string; encoding: string }[]
  }[]
}

export async function readManifestOf(dir: string): Promise<ManifestShape> {
  return JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as ManifestShape
}
