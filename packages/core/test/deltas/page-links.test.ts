// The pages the two site dictionaries link (`--pages`, the asset dictionary) are the user's own
// files, not variants: a linked page keeps its permission bits exactly (0640 stays 0640, 0755
// stays 0755), and a symlinked page or folder is never written through nor replaced, so a file
// outside the site keeps its bytes and the site keeps its links.
import { chmod, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { prepareAssetDictionary } from '../../src/deltas/asset-dictionary.js'
import { preparePageDictionary } from '../../src/deltas/page-dictionary.js'

const LINK = 'rel="compression-dictionary"'

/** A page with enough text of its own for the page dictionary to be worth building. */
function pageOf(n: number): string {
  const items = Array.from({ length: 60 }, (_, i) => `<li><a href="/docs/${i}/">Chapter ${i} of the guide</a></li>`)
  return `<!doctype html><html><head><title>Page ${n}</title><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body><nav><ul>${items.join('')}</ul></nav><main><h1>Page ${n}</h1><p>Text of page ${n}.</p></main></body></html>\n`
}

const CODE = Array.from({ length: 200 }, (_, i) => `export function f${i}(v){return v*${i}+"${i.toString(36)}"}`).join(
  '\n',
)

/** Each of the two dictionaries, as the build runs it before compression. */
const LINKERS: [string, (dir: string) => Promise<{ linked: number } | undefined>][] = [
  ['the page dictionary (--pages)', (dir) => preparePageDictionary(dir, 16384)],
  ['the asset dictionary', (dir) => prepareAssetDictionary(dir, 1024 * 1024)],
]

describe.each(LINKERS)('pages linked by %s', (_, link) => {
  let site: Awaited<ReturnType<typeof tempDir>>
  let outside: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    site = await tempDir('page-links')
    outside = await tempDir('page-links-outside')
    await mkdir(join(site.path, 'assets'))
    await writeFile(join(site.path, 'assets/app-Ab12Cd34.js'), CODE)
  })
  afterEach(async () => {
    await site.remove()
    await outside.remove()
  })

  it('keeps each page’s own mode exactly (0640, 0600, 0755, 0644)', async () => {
    const modes: Record<string, number> = { 'a.html': 0o640, 'b.html': 0o600, 'c.html': 0o755, 'd/e.html': 0o644 }
    await mkdir(join(site.path, 'd'))
    for (const [n, [path, mode]] of Object.entries(modes).entries()) {
      await writeFile(join(site.path, path), pageOf(n))
      await chmod(join(site.path, path), mode)
    }
    expect((await link(site.path))?.linked).toBe(4)
    for (const [path, mode] of Object.entries(modes)) {
      expect(await readFile(join(site.path, path), 'utf8'), path).toContain(LINK)
      expect(((await stat(join(site.path, path))).mode & 0o7777).toString(8), path).toBe(mode.toString(8))
    }
  })

  it('never writes through a symlinked page or folder: the files outside keep their bytes, the links stay links', async () => {
    for (const n of [0, 1]) await writeFile(join(site.path, `page-${n}.html`), pageOf(n))
    // A page and a folder of pages that lead out of the site.
    const secret = `${pageOf(7).replace('Page 7', 'Outside the site')}`
    await writeFile(join(outside.path, 'secret.html'), secret)
    await mkdir(join(outside.path, 'docs'))
    await writeFile(join(outside.path, 'docs/index.html'), secret)
    await symlink(join(outside.path, 'secret.html'), join(site.path, 'out.html'))
    await symlink(join(outside.path, 'docs'), join(site.path, 'docs'))
    // A page that is a link to another page of the site.
    await symlink('page-0.html', join(site.path, 'latest.html'))

    const result = await link(site.path)
    expect(await readFile(join(outside.path, 'docs/index.html'), 'utf8')).toBe(secret)
    expect(await readFile(join(outside.path, 'secret.html'), 'utf8')).toBe(secret)
    expect(result?.linked).toBe(2)
    for (const path of ['out.html', 'docs', 'latest.html'])
      expect((await lstat(join(site.path, path))).isSymbolicLink(), path).toBe(true)
    expect(await readlink(join(site.path, 'latest.html'))).toBe('page-0.html')
    // The link's target is a page of the site: it has the link, so the symlinked page shows it.
    expect(await readFile(join(site.path, 'latest.html'), 'utf8')).toContain(LINK)
  })
})
