// Across entry points: `preencode compress`, the recompression `deploy` runs on a site whose
// manifest is out of date, the Vite plugin and the Rollup plugin run one pipeline. For the same
// site and options, in the same folder, they leave byte-identical files (originals, every
// variant and delta, the manifest) and print the same JSON.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { type BuildResultJson, reconcileManifest, supportsDictionaryCompression } from '@preencode/core'
import preencodeRollup from '@preencode/rollup'
import { tempDir } from '@preencode/test-utils'
import preencodeVite, { type PreencodeViteOptions } from '@preencode/vite'
import { type Plugin as RollupPlugin, rollup } from 'rollup'
import { build, type Plugin as VitePlugin } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLogger } from './helpers.js'

const BIN = resolve(import.meta.dirname, '../../cli/dist/bin.js')
const DELTAS = supportsDictionaryCompression()

const CODE = Array.from(
  { length: 800 },
  (_, i) => `export function f${i}(x) { return x * ${i % 17} + "${(i * 7919) % 1000}" }\n`,
).join('')
const SITE: Record<string, string | Buffer> = {
  'index.html': `<!doctype html><title>entry points</title>${'<p>Hello, entry points.</p>\n'.repeat(40)}<script type="module" src="/assets/app-Ef56Gh78.js"></script>`,
  'assets/app-Ef56Gh78.js': CODE.replace('function f100(', 'function edited100('),
  'assets/style-1a2b3c4d.css': `${'.a { color: red; margin: 0 auto; }\n'.repeat(60)}`,
  'data.json': JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` }))),
  'small.txt': 'too small to compress',
  'image.png': createHash('sha512').update('not compressible').digest(),
}

let work: Awaited<ReturnType<typeof tempDir>>
/** The one folder every entry point writes; its absolute path is in the report. */
let site: string
/** The site as built, timestamps kept: copied into `site` before each entry point. */
let source: string
/** The deployed site: the deltas are made against its app-Ab12Cd34.js. */
let previous: string

beforeAll(async () => {
  work = await tempDir('entry-points')
  site = join(work.path, 'site')
  source = join(work.path, 'source')
  previous = join(work.path, 'previous')
  for (const [path, body] of Object.entries(SITE)) {
    await mkdir(join(source, path, '..'), { recursive: true })
    await writeFile(join(source, path), body)
  }
  await mkdir(join(previous, 'assets'), { recursive: true })
  await writeFile(join(previous, 'assets/app-Ab12Cd34.js'), CODE)
  await mkdir(join(work.path, 'app'), { recursive: true })
  await writeFile(join(work.path, 'app/entry.js'), 'export const x = 1\n')
})
afterAll(() => work.remove())

/** The same options, as each entry point spells them. */
const OPTIONS = {
  levels: { brotli: 5, zstd: 3 },
  threshold: 200,
  cache: false,
  exclude: ['.vite/**'],
} satisfies PreencodeViteOptions
const deltas = (): PreencodeViteOptions['deltas'] => (DELTAS ? { previous } : false)
const flags = (): string[] => [
  '--level-brotli=5',
  '--level-zstd=3',
  '--threshold=200',
  '--no-cache',
  '--exclude=.vite/**',
  '--json',
  ...(DELTAS ? ['--previous', previous] : ['--no-deltas']),
]

async function freshSite(): Promise<void> {
  await rm(site, { recursive: true, force: true })
  await cp(source, site, { recursive: true, preserveTimestamps: true })
}

/** Every file under `site` and its SHA-256. */
async function snapshot(): Promise<Record<string, string>> {
  const entries = await readdir(site, { recursive: true, withFileTypes: true })
  const files: Record<string, string> = {}
  for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(entry.parentPath, entry.name)
    files[relative(site, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return files
}

/** The JSON without what differs from run to run: durations and the process's memory. */
function stable(json: BuildResultJson): unknown {
  const { durationMs: _d, peakRssBytes: _r, peakBytesInFlight: _p, ...rest } = json
  if (!rest.deltas) return rest
  const { durationMs: _dd, ...deltaReport } = rest.deltas
  return { ...rest, deltas: deltaReport }
}

function cliCompress(): BuildResultJson {
  const run = spawnSync(process.execPath, [BIN, 'compress', site, ...flags()], {
    cwd: work.path,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(work.path, 'user-cache') },
  })
  expect(run.status, run.stderr).toBe(0)
  const lines = run.stdout.trim().split('\n')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]!) as BuildResultJson
}

/** A plugin that replaces what the bundle wrote with the site, before preencode's closeBundle. */
function writeSite(): VitePlugin & RollupPlugin {
  return {
    name: 'write-site',
    async writeBundle() {
      await freshSite()
    },
  }
}

describe('every entry point runs one pipeline', () => {
  const outputs: Record<string, { files: Record<string, string>; json?: unknown }> = {}

  it('preencode compress', async () => {
    await freshSite()
    const json = cliCompress()
    expect(json.files).toBe(Object.keys(SITE).length)
    if (DELTAS) expect(json.deltas?.files.map((f) => f.path)).toEqual(['assets/app-Ef56Gh78.js'])
    outputs.cli = { files: await snapshot(), json: stable(json) }
  })

  it("deploy's recompression of a site edited after its build", async () => {
    await freshSite()
    await writeFile(join(site, 'index.html'), `<!doctype html><title>before</title>${'<p>Before.</p>\n'.repeat(40)}`)
    cliCompress()
    await cp(source, site, { recursive: true, preserveTimestamps: true })
    const { recompressed } = await reconcileManifest(site)
    expect(recompressed).toBe(true)
    outputs.deploy = { files: await snapshot() }
  })

  it('the Vite plugin', async () => {
    const { logger, lines } = captureLogger()
    await build({
      root: join(work.path, 'app'),
      logLevel: 'info',
      customLogger: logger,
      configFile: false,
      build: { outDir: site, emptyOutDir: true, rollupOptions: { input: join(work.path, 'app/entry.js') } },
      plugins: [writeSite(), preencodeVite({ ...OPTIONS, deltas: deltas(), report: 'json' })],
    })
    const json = lines.filter((line) => line.startsWith('{"dir"'))
    expect(json).toHaveLength(1)
    outputs.vite = { files: await snapshot(), json: stable(JSON.parse(json[0]!) as BuildResultJson) }
  })

  it('the Rollup plugin', async () => {
    const logs: string[] = []
    const bundle = await rollup({
      input: join(work.path, 'app/entry.js'),
      plugins: [writeSite(), preencodeRollup({ ...OPTIONS, deltas: deltas(), report: 'json' })],
      onLog: (_level, log) => {
        logs.push(log.message)
      },
    })
    await bundle.write({ dir: site })
    await bundle.close()
    const json = logs.filter((m) => m.includes('{"dir"')).map((m) => m.slice(m.indexOf('{"dir"')))
    expect(json).toHaveLength(1)
    outputs.rollup = { files: await snapshot(), json: stable(JSON.parse(json[0]!) as BuildResultJson) }
  })

  it('leave the same bytes and print the same JSON', () => {
    const { cli, deploy, vite, rollup: fromRollup } = outputs
    expect(Object.keys(cli!.files)).toContain('.preencode-manifest.json')
    expect(Object.keys(cli!.files)).toContain('assets/app-Ef56Gh78.js.br')
    if (DELTAS) expect(Object.keys(cli!.files).some((path) => path.endsWith('.dcb'))).toBe(true)
    expect(deploy!.files).toEqual(cli!.files)
    expect(vite!.files).toEqual(cli!.files)
    expect(fromRollup!.files).toEqual(cli!.files)
    expect(vite!.json).toEqual(cli!.json)
    expect(fromRollup!.json).toEqual(cli!.json)
  })
})
