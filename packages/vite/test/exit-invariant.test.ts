// Whatever tool writes last, the folder a build compressed stays true (issue 34): real `vite build`s
// in child processes, with plugins preencode does not know that write after its last hook, and a
// writer that deletes and recreates files while preencode compresses them. After the process has
// ended: no variant decodes to other bytes than the file beside it, every file the rule compresses
// has its three variants (or the line gives the command), and the process printed one line.
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { expectSiteCompressed, listFiles, page, perTestCleanup, VARIANT_EXTENSIONS } from './helpers.js'

const { app } = perTestCleanup()
const run = promisify(execFile)
const THRESHOLD = 200

/**
 * Writes `build.mjs` in `root`: a `vite build` with `preencode()` and then `plugins` (source text
 * of an array expression that may use `dist`, `page`, `put`), then `after` (statements run after
 * `build()` resolved). Returns the lines of its output that mention preencode.
 */
async function buildInChild(
  root: string,
  plugins: string,
  {
    after = '',
    env = {},
    cache = join(root, '.test-cache'),
  }: { after?: string; env?: NodeJS.ProcessEnv; cache?: string } = {},
): Promise<string[]> {
  const script = join(root, 'build.mjs')
  await writeFile(
    script,
    `import { mkdir, rm, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { build } from ${JSON.stringify(import.meta.resolve('vite'))}
import preencode from ${JSON.stringify(import.meta.resolve('@preencode/vite'))}
const root = ${JSON.stringify(root)}
const dist = join(root, 'dist')
const page = (title) => ${JSON.stringify(page('TITLE'))}.replaceAll('TITLE', title)
const put = async (path, text) => {
  await mkdir(dirname(join(dist, path)), { recursive: true })
  await writeFile(join(dist, path), text)
}
const options = { threshold: ${THRESHOLD}, levels: { brotli: 5, zstd: 3 }, cache: ${JSON.stringify(cache)} }
await build({ root, configFile: false, logLevel: 'warn', plugins: [preencode(options), ...${plugins}] })
${after}
`,
  )
  const { stdout, stderr } = await run(process.execPath, [script], { env: { ...process.env, ...env } })
  return `${stdout}\n${stderr}`.split('\n').filter((line) => line.includes('[preencode]'))
}

/** A plugin preencode does not know that renders pages in its own closeBundle, after preencode's. */
const UNKNOWN_SSG = `[{
  name: 'some-unknown-ssg',
  enforce: 'post',
  closeBundle: {
    order: 'post',
    async handler() {
      await put('index.html', page('prerendered home'))
      await put('about.html', page('about'))
    },
  },
}]`

describe('@preencode/vite: the folder stays true whatever tool writes last', () => {
  it('a plugin it does not know rewrites a page after its last hook, and a script writes one after build(): no stale variant, one line', async () => {
    const root = await app()
    const dist = join(root, 'dist')
    const after = "setTimeout(() => put('404.html', page('not found')), 10)"
    const lines = await buildInChild(root, UNKNOWN_SSG, { after })
    const checked = await expectSiteCompressed(dist, THRESHOLD)
    expect(checked).toEqual(expect.arrayContaining(['index.html', 'about.html', '404.html', 'data.json']))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/404\.html, about\.html, index\.html/)
    expect(lines[0]).toContain('compressed again')
  })

  it('vite-ssg: a client build, a server build, then pages rendered in the same process: complete, one line', async () => {
    const root = await app()
    const dist = join(root, 'dist')
    const after = `await build({
  root, configFile: false, logLevel: 'warn', plugins: [preencode(options)],
  build: { ssr: 'src/entry-server.js', outDir: '.vite-ssg-temp' },
})
await put('index.html', page('prerendered home'))
await put('about/index.html', page('about'))`
    const lines = await buildInChild(root, '[]', { after })
    const checked = await expectSiteCompressed(dist, THRESHOLD)
    expect(checked).toEqual(expect.arrayContaining(['index.html', 'about/index.html', 'data.json']))
    expect(await listFiles(join(root, '.vite-ssg-temp'))).not.toContainEqual(expect.stringMatching(/\.(gz|br|zst)$/))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/about\/index\.html, index\.html/)
  })

  it('when compressing again cannot run, removes the stale variants and names the command that completes the folder', async () => {
    const root = await app()
    const dist = join(root, 'dist')
    // The child that would compress again dies at once (set after build(), so the build itself runs).
    const after = `process.env.NODE_OPTIONS = '--import=data:text/javascript,process.exit(3)'`
    const lines = await buildInChild(root, UNKNOWN_SSG, { after })
    const files = await listFiles(dist)
    for (const path of ['index.html', 'about.html'])
      expect(VARIANT_EXTENSIONS.filter((ext) => files.includes(`${path}${ext}`))).toEqual([])
    // Whatever is left decodes to the file beside it; data.json kept its variants.
    await expect(expectSiteCompressed(dist, THRESHOLD)).rejects.toThrow(/about\.html|index\.html/)
    expect(files).toEqual(expect.arrayContaining(['data.json.br', 'data.json.gz', 'data.json.zst']))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/about\.html, index\.html/)
    expect(lines[0]).toContain('`preencode compress dist`')
  })

  it('builds every time while another writer deletes and recreates 2,000 svg files as preencode compresses them', {
    timeout: 1_200_000,
  }, async () => {
    const icons = Array.from({ length: 2000 }, (_, i) => `icons/icon-${i}.svg`)
    // Storybook's staticDirs copy: each file deleted, then written again (16 at a time), over and
    // over, until the writer's own closeBundle (after preencode's) lets it finish.
    const racer = `[{
  name: 'static-dirs-copier',
  enforce: 'post',
  async writeBundle() {
    const icons = ${JSON.stringify(icons)}
    const svg = (path) => '<svg xmlns="http://www.w3.org/2000/svg">' + '<path d="M0 0h24v24H0z" fill="none"/>'.repeat(12) + '<title>' + path + '</title></svg>'
    await Promise.all(icons.map((path) => put(path, svg(path))))
    const lanes = Array.from({ length: 16 }, (_, lane) => icons.filter((_, i) => i % 16 === lane))
    globalThis.copying = Promise.all(lanes.map(async (lane) => {
      while (!globalThis.stop) {
        for (const path of lane) {
          await unlink(join(dist, path)).catch(() => {})
          await put(path, svg(path))
        }
      }
    }))
  },
  closeBundle: {
    order: 'post',
    async handler() {
      globalThis.stop = true
      await globalThis.copying
    },
  },
}]`
    // One cache for the rounds: each round races over the same bytes, and encodes little.
    const cache = join(await app(), '.test-cache')
    for (let round = 0; round < 5; round++) {
      const root = await app()
      const lines = await buildInChild(root, racer, { cache })
      const checked = await expectSiteCompressed(join(root, 'dist'), THRESHOLD)
      expect(checked).toEqual(expect.arrayContaining(icons))
      expect(lines.length).toBeLessThanOrEqual(1)
    }
  })
})
