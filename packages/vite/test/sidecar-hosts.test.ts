// A real in-process Vite build with a host's build variable set (Netlify): the plugin says one
// line and writes no sidecars; `force: true` writes them.
import { join } from 'node:path'
import preencode from '@preencode/vite'
import { build } from 'vite'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogger, listFiles, perTestCleanup, variantsOf } from './helpers.js'

const { app } = perTestCleanup()
const saved = process.env.NETLIFY
afterEach(() => {
  if (saved === undefined) delete process.env.NETLIFY
  else process.env.NETLIFY = saved
})

async function viteBuild(root: string, force: boolean | undefined) {
  const capture = captureLogger()
  await build({
    root,
    configFile: false,
    logLevel: 'info',
    customLogger: capture.logger,
    plugins: [preencode({ report: 'json', threshold: 200, levels: { brotli: 5, zstd: 3 }, cache: false, force })],
  })
  return capture
}

describe('@preencode/vite on a host that ignores sidecars', () => {
  it('NETLIFY=true: one line, no .br/.gz/.zst and no manifest in dist', async () => {
    const root = await app()
    process.env.NETLIFY = 'true'
    const { lines } = await viteBuild(root, undefined)
    // Vite's own lines name the output folder, which is under a temp folder called preencode-…
    const said = lines.filter((line) => line.startsWith('preencode') || line.startsWith('{'))
    expect(said).toEqual([
      expect.stringMatching(
        /^preencode: Netlify \(NETLIFY=true\) compresses responses itself .* `force: true` writes them anyway/,
      ),
    ])
    const files = await listFiles(join(root, 'dist'))
    expect(files.filter((f) => /\.(br|gz|zst)$/.test(f))).toEqual([])
    expect(files).not.toContain('.preencode-manifest.json')
    expect(files).toContain('index.html')
  })

  it('NETLIFY=true with force: true writes them', async () => {
    const root = await app()
    process.env.NETLIFY = 'true'
    const { lines } = await viteBuild(root, true)
    expect(lines.join('\n')).not.toContain('compresses responses itself')
    const files = await listFiles(join(root, 'dist'))
    expect(variantsOf(files, 'index.html')).toEqual(expect.arrayContaining(['.br', '.gz', '.zst']))
  })
})
