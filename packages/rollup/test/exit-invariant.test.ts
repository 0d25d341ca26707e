// Whatever writes last, the output a Rollup build compressed stays true: real Rollup builds in
// child processes (the JavaScript API and Rollup's CLI), with a plugin whose closeBundle runs
// after preencode's and a script that writes after `bundle.close()`. After the process has ended:
// no variant decodes to other bytes than the file beside it, every late file has its three
// variants (or none, and the line gives the command), and the process printed one line.
import { execFile } from 'node:child_process'
import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { MANIFEST_FILENAME } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const FIXTURE = join(import.meta.dirname, 'fixtures', 'lib')
const DECODERS = { '.gz': gunzipSync, '.br': brotliDecompressSync, '.zst': zstdDecompressSync } as const
const ALL = Object.keys(DECODERS)
const ROLLUP = import.meta.resolve('rollup')
const ROLLUP_CLI = fileURLToPath(new URL('../bin/rollup', ROLLUP))

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function fixture(): Promise<string> {
  const dir = await tempDir('rollup-exit')
  cleanups.push(dir.remove)
  await cp(FIXTURE, dir.path, { recursive: true })
  return dir.path
}

/** Source text shared by the scripts: paths, the options, `grow` (appends to an output file), `page`. */
function prelude(root: string): string {
  return `import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import preencode from ${JSON.stringify(import.meta.resolve('@preencode/rollup'))}
const root = ${JSON.stringify(root)}
const dist = join(root, 'dist')
const options = { report: false, threshold: 200, levels: { brotli: 5, zstd: 3 }, cache: join(root, '.cache') }
const grow = async (path) => writeFile(join(dist, path), (await readFile(join(dist, path), 'utf8')) + '\\n// written after preencode'.repeat(20))
const page = (title) => '<!doctype html><title>' + title + '</title>' + '<p>' + title + ' text. </p>'.repeat(40)
/** A plugin preencode does not know, whose closeBundle runs after preencode's. */
const lateWriter = {
  name: 'test:late-writer',
  closeBundle: {
    order: 'post',
    async handler() {
      await grow('main.js')
      await writeFile(join(dist, 'licenses.txt'), 'MIT License, and more. '.repeat(40))
    },
  },
}
`
}

/** Runs `script` (its text) with Node in `root`; returns the lines of its output that mention preencode. */
async function runScript(root: string, script: string, args: string[] = []): Promise<string[]> {
  const path = join(root, 'build.mjs')
  await writeFile(path, script)
  const { stdout, stderr } = await run(process.execPath, [...args, path], { cwd: root })
  return `${stdout}\n${stderr}`.split('\n').filter((line) => line.includes('[preencode]'))
}

/** A build with the JavaScript API, Rollup's log to stderr; `after`: statements after `bundle.close()`. */
function apiBuild(root: string, plugins: string, after = ''): Promise<string[]> {
  return runScript(
    root,
    `${prelude(root)}import { rollup } from ${JSON.stringify(ROLLUP)}
const bundle = await rollup({
  input: join(root, 'src/main.js'),
  plugins: [preencode(options), ...${plugins}],
  onLog: (level, log) => process.stderr.write(level + ': ' + log.message + '\\n'),
})
await bundle.write({ dir: dist, format: 'es' })
await bundle.close()
${after}
`,
  )
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * Every variant in `dir` decodes to the file beside it; each of `complete` has all three.
 * Returns the originals that have variants.
 */
async function expectTrue(dir: string, complete: readonly string[]): Promise<string[]> {
  const files = await listFiles(dir)
  const originals = files.filter((path) => !ALL.some((ext) => path.endsWith(ext)) && path !== MANIFEST_FILENAME)
  const compressed: string[] = []
  for (const path of originals) {
    const original = await readFile(join(dir, path))
    const present = ALL.filter((ext) => files.includes(path + ext))
    if (complete.includes(path)) expect(present, path).toEqual(ALL)
    if (present.length > 0) compressed.push(path)
    for (const ext of present) {
      const decode = DECODERS[ext as keyof typeof DECODERS]
      expect(decode(await readFile(join(dir, path + ext))).equals(original), `${path}${ext}`).toBe(true)
    }
  }
  return compressed
}

describe('@preencode/rollup: the output stays true whatever writes last', () => {
  it("a plugin's closeBundle after preencode's rewrites a chunk and adds a file: compressed again at exit, one line", async () => {
    const root = await fixture()
    const lines = await apiBuild(root, '[lateWriter]')
    expect(await expectTrue(join(root, 'dist'), ['main.js', 'licenses.txt'])).toContain('main.js')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^warn: .*\[preencode\] 2 file\(s\) in dist .*\(licenses\.txt, main\.js\): compressed again/,
    )
  })

  it('a script writes into the output after bundle.close(): compressed again at exit, one line', async () => {
    const root = await fixture()
    const after = `await grow('main.js')
setTimeout(() => writeFile(join(dist, '404.html'), page('not found')), 10)`
    const lines = await apiBuild(root, '[]', after)
    expect(await expectTrue(join(root, 'dist'), ['main.js', '404.html'])).toEqual(
      expect.arrayContaining(['404.html', 'main.js']),
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/\(404\.html, main\.js\): compressed again/)
  })

  it("under Rollup's CLI (which prints plugin warnings before it closes the bundle) the line goes to stderr", async () => {
    const root = await fixture()
    await writeFile(
      join(root, 'rollup.config.mjs'),
      `${prelude(root)}export default { input: 'src/main.js', output: { dir: 'dist', format: 'es' }, plugins: [preencode(options), lateWriter] }\n`,
    )
    const { stderr } = await run(process.execPath, [ROLLUP_CLI, '-c', 'rollup.config.mjs'], { cwd: root })
    await expectTrue(join(root, 'dist'), ['main.js', 'licenses.txt'])
    const lines = stderr.split('\n').filter((line) => line.includes('[preencode]'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[preencode\] 2 file\(s\) in dist .*\(licenses\.txt, main\.js\): compressed again/)
  })

  it('when compressing again cannot run, removes the stale variants and names the command that completes the folder', async () => {
    const root = await fixture()
    // The child that would compress again dies at once (set after the build, so the build runs).
    const after = `process.env.NODE_OPTIONS = '--import=data:text/javascript,process.exit(3)'`
    const lines = await apiBuild(root, '[lateWriter]', after)
    const compressed = await expectTrue(join(root, 'dist'), [])
    expect(compressed).not.toContain('main.js')
    expect(compressed).not.toContain('licenses.txt')
    expect(compressed.some((path) => /^lazy-.*\.js$/.test(path))).toBe(true)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/\(licenses\.txt, main\.js\), and compressing again failed/)
    expect(lines[0]).toContain('`preencode compress dist`')
  })
})
