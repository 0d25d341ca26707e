// The visual report in Chromium: `preencode compress` then `preencode report --html` on a small
// site (the real binary), opened from the file with every network request watched. The page
// must render offline, its totals, table and treemap must say what the manifest says, the
// format switch and the column sort must work, and a screenshot is kept as a test artifact.
import { spawnSync } from 'node:child_process'
import { mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from '@playwright/test'
import { type Format, type Manifest, type ManifestFile, readManifest } from '@preencode/core'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'

const BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')

function cli(args: string[], cwd: string): void {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(cwd, 'cache') },
  })
  if (run.status !== 0) throw new Error(`preencode ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
}

/** A site with folders, several types, a file too small to compress, a binary and an awkward name. */
async function makeSite(dir: string): Promise<void> {
  let seed = 3
  const words = (n: number): string =>
    Array.from(
      { length: n },
      () =>
        ['layout', 'render', 'signal', 'effect', 'store', 'route', 'token'][(seed = (seed * 16807) % 2147483647) % 7],
    ).join(' ')
  const put = async (path: string, content: string | Buffer): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  await put('index.html', `<!doctype html><title>home</title>${`<p>${words(12)}</p>\n`.repeat(300)}`)
  await put('blog/index.html', `<!doctype html><title>blog</title>${`<article>${words(20)}</article>\n`.repeat(120)}`)
  await put('blog/first-post/index.html', `<!doctype html><title>post</title>${`<p>${words(30)}</p>\n`.repeat(60)}`)
  await put('assets/index-3f2a9c1b.js', `export const words = ${JSON.stringify(words(40_000))}\n`)
  await put(
    'assets/vendor-9a8b7c6d.js',
    `export const table = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, label: words(3) })))}\n`,
  )
  await put(
    'assets/style-11aa22bb.css',
    `.card { display: grid; gap: 8px; }\n${'.row > .cell { padding: 4px 8px; }\n'.repeat(300)}`,
  )
  await put(
    'assets/logo.svg',
    `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="4" cx="5" cy="5"/>'.repeat(200)}</svg>`,
  )
  await put('robots.txt', 'User-agent: *\n')
  await put('images/photo.png', Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919 + (i >> 3)) % 251)))
  await put('notes/"quotes" & <tags>.txt', words(3000))
}

/** Bytes a browser gets for `file` in `format`: the variant, or the file as is without one. */
function sent(file: ManifestFile, format: Format | 'original'): number {
  if (format === 'original') return file.size
  return file.variants.find((v) => v.format === format)?.size ?? file.size
}

let site: { dir: string; html: string; manifest: Manifest; remove: () => Promise<void> }

test.beforeAll(async () => {
  const tmp = await tempDir('report')
  const dir = join(tmp.path, 'public')
  await makeSite(dir)
  cli(['compress', 'public', '--level-brotli', '5', '--level-zstd', '3', '--level-gzip', '6'], tmp.path)
  const html = join(tmp.path, 'out', 'report.html')
  cli(['report', 'public', '--html', html], tmp.path)
  site = { dir, html, manifest: await readManifest(dir), remove: tmp.remove }
})

test.afterAll(async () => {
  await site?.remove()
})

test('renders offline from the file: totals, table and treemap match the manifest; switch and sort work', async ({
  page,
}, testInfo) => {
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.context().setOffline(true)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(pathToFileURL(site.html).href)

  const { manifest } = site
  const files = manifest.files
  // Totals: the originals and each format as sent.
  for (const format of ['original', 'brotli', 'zstd', 'gzip'] as const) {
    const total = files.reduce((sum, f) => sum + sent(f, format), 0)
    await expect(page.locator(`#totals .total[data-format="${format}"]`)).toHaveAttribute('data-bytes', String(total))
  }
  const original = files.reduce((sum, f) => sum + f.size, 0)
  const brotli = files.reduce((sum, f) => sum + sent(f, 'brotli'), 0)
  await expect(page.locator('#totals .total[data-format="brotli"] .saved')).toContainText(
    `${(Math.round(1000 * (1 - brotli / original)) / 10).toFixed(1)}% saved`,
  )

  // The table: one row per file, each number the manifest's.
  await expect(page.locator('#files tbody tr')).toHaveCount(files.length)
  const headers = await page
    .locator('#files thead th')
    .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-key')))
  for (const file of files) {
    const cells = page
      .locator('#files tbody tr')
      .filter({ has: page.locator(`td:text-is(${JSON.stringify(file.path)})`) })
      .locator('td')
    await expect(cells.nth(0)).toHaveText(file.path)
    await expect(cells.nth(headers.indexOf('original'))).toHaveAttribute('data-bytes', String(file.size))
    for (const format of ['brotli', 'zstd', 'gzip'] as const) {
      const variant = file.variants.find((v) => v.format === format)
      await expect(cells.nth(headers.indexOf(format)), `${file.path} ${format}`).toHaveAttribute(
        'data-bytes',
        variant ? String(variant.size) : '',
      )
    }
  }
  // The awkward name is shown as text, not markup.
  await expect(page.locator('#files td', { hasText: '"quotes" & <tags>.txt' })).toHaveCount(1)

  // Treemap: a cell per file with bytes, sized by the chosen format; the biggest cell is the biggest file.
  const treemap = page.locator('#treemap')
  await expect(treemap).toHaveAttribute('data-format', 'brotli')
  await expect(treemap.locator('.cell')).toHaveCount(files.filter((f) => f.size > 0).length)
  async function biggestCell(): Promise<string | null> {
    return treemap.locator('.cell').evaluateAll((cells) => {
      const area = (c: Element): number => {
        const r = c.getBoundingClientRect()
        return r.width * r.height
      }
      return [...cells].sort((a, b) => area(b) - area(a))[0]?.getAttribute('data-path') ?? null
    })
  }
  const largestIn = (format: Format | 'original'): string =>
    [...files].sort((a, b) => sent(b, format) - sent(a, format))[0]!.path
  expect(await biggestCell()).toBe(largestIn('brotli'))
  await page.locator('#formats button[data-format="original"]').click()
  await expect(treemap).toHaveAttribute('data-format', 'original')
  await expect(page.locator('#formats button[data-format="original"]')).toHaveAttribute('aria-pressed', 'true')
  expect(await biggestCell()).toBe(largestIn('original'))
  const png = files.find((f) => f.path === 'images/photo.png')!
  await expect(treemap.locator('.cell[data-path="images/photo.png"]')).toHaveAttribute('data-bytes', String(png.size))
  await page.locator('#formats button[data-format="gzip"]').click()
  const js = files.find((f) => f.path === 'assets/index-3f2a9c1b.js')!
  await expect(treemap.locator('.cell[data-path="assets/index-3f2a9c1b.js"]')).toHaveAttribute(
    'data-bytes',
    String(sent(js, 'gzip')),
  )

  // Sorting: by original size, largest first, then smallest first.
  const paths = (): Promise<string[]> =>
    page.locator('#files tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-path') ?? ''))
  const bySize = [...files].sort((a, b) => b.size - a.size || (a.path < b.path ? 1 : -1)).map((f) => f.path)
  await page.locator('#files th[data-key="original"]').click()
  await expect(page.locator('#files th[data-key="original"]')).toHaveAttribute('aria-sort', 'descending')
  expect(await paths()).toEqual(bySize)
  await page.locator('#files th[data-key="original"]').click()
  await expect(page.locator('#files th[data-key="original"]')).toHaveAttribute('aria-sort', 'ascending')
  expect(await paths()).toEqual([...bySize].reverse())

  // Back to brotli for the picture kept with the test results.
  await page.locator('#formats button[data-format="brotli"]').click()
  const screenshot = testInfo.outputPath('report.png')
  await page.screenshot({ path: screenshot, fullPage: true })
  await testInfo.attach('report.png', { path: screenshot, contentType: 'image/png' })
  expect((await stat(screenshot)).size).toBeGreaterThan(10_000)

  expect(errors).toEqual([])
  expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([])
  expect(requests).toEqual([pathToFileURL(site.html).href])
})
