// Builds the sites every project serves, once per run (brotli 11 on a tree is slow): the
// playground built by Vite with the preencode plugin, plus what the suite needs beside it (a
// > 8 MiB zstd-only asset, a second directory index, odd names, dotfiles); and a
// `keepOriginals: false` site.
// Falls back to the hand-made fixture when the playground does not build.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { constants, zstdCompressSync } from 'node:zlib'
import { compress as compressDirectory, MANIFEST_FILENAME, type Manifest } from '@preencode/core'
import { REPO_ROOT } from '@preencode/test-utils'
import { bigText, fixtureFiles } from '../../packages/server-config/test/fixture.ts'

export const BIG_ASSET = 'big/huge.txt'
/** A name with a space and non-ASCII letters: URL-encoded on the wire, raw in every config. */
export const ODD_NAME = 'files/naïve café (1).json'

/** A name with a `?`: `%3F` on the wire; Apache refused it with 403 when rewriting to a sidecar (issue 19). */
export const QUESTION_NAME = 'files/what?.json'
/** Names a rewrite could mangle once decoded: `%` (an escape on its own), `#`, `&`, `+`. */
export const PERCENT_NAMES = ['files/100%.json', 'files/a#b&c+d.json'] as const

/**
 * Files every site folder may hold that no server may send (issue 19, item 5): secrets, our own
 * deploy state, leftovers of a killed write or deploy, a dot-folder, a compressible dotfile
 * (with variants in the keep site), and a dotfile under `/.well-known/`. The manifest lists
 * them all (a scan lists every file).
 */
export const DOTFILES: Readonly<Record<string, string>> = Object.freeze({
  '.env': 'SECRET_TOKEN=preencode-e2e-secret\n',
  '.preencode-deploy-state.json': JSON.stringify({ version: 1, secret: 'preencode-e2e-secret', deploys: [] }),
  '.preencode-tmp-0123456789ab': 'preencode-e2e-secret: half a deploy\n',
  'assets/.app.js.swp': 'preencode-e2e-secret: an editor swap file\n',
  '.git/config': '[core]\n\t# preencode-e2e-secret\n',
  'docs/.secret.json': JSON.stringify({ secret: 'preencode-e2e-secret', pad: 'x'.repeat(4000) }),
  '.well-known/.hidden': 'preencode-e2e-secret\n',
})
/** Served: RFC 8615 names live under a dot-folder. */
export const WELL_KNOWN = '.well-known/security.txt'

/**
 * Pages of the static-host conventions (docs/static-host-conventions.md): `/contact` and
 * `/guide/start` are clean URLs of `.html` files with no folder of their name; `404.html` answers
 * every missing path. Each is large enough to get variants.
 */
export const CLEAN_PAGES = ['contact.html', 'guide/start.html'] as const
export const NOT_FOUND_PAGE = '404.html'

function page(title: string): string {
  const rows = Array.from(
    { length: 60 },
    (_, i) => `<li>${title}, line ${i}: a page of the static-host conventions</li>`,
  )
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><h1 id="page">${title}</h1><ul>${rows.join('')}</ul>\n`
}

/** Everything the serving suite needs beside the site itself. */
function extraFiles(): Record<string, string> {
  return {
    ...Object.fromEntries(CLEAN_PAGES.map((path) => [path, page(path)])),
    [NOT_FOUND_PAGE]: page('Not found'),
    [ODD_NAME]: oddFile(),
    [QUESTION_NAME]: oddFile().replace('crème', 'question'),
    ...Object.fromEntries(PERCENT_NAMES.map((name) => [name, oddFile().replace('crème', name)])),
    [WELL_KNOWN]: 'Contact: mailto:security@example.com\nExpires: 2999-01-01T00:00:00.000Z\n',
    ...DOTFILES,
  }
}

function oddFile(): string {
  return JSON.stringify({ rows: Array.from({ length: 80 }, (_, i) => ({ i, text: `crème brûlée n°${i}` })) }, null, 1)
}

export interface BuiltSites {
  /** Site with originals (playground or fixture). */
  keep: string
  /** Site built with `keepOriginals: false`. */
  nokeep: string
  /** What the keep site is made of, for the report. */
  source: 'playground' | 'fixture'
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

async function writeFiles(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), contents)
  }
}

function buildPlayground(outDir: string): boolean {
  const pnpm = spawnSync(
    'pnpm',
    ['--filter', 'playground', 'exec', 'vite', 'build', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    },
  )
  return pnpm.status === 0
}

/**
 * Adds the > 8 MiB asset with only a zstd variant (window <= 8 MiB, as browsers require),
 * so Chromium must decode a large zstd response. Done by hand because the engine would also
 * write a br variant, which a browser would prefer.
 */
async function addBigZstdAsset(dir: string): Promise<void> {
  const data = bigText()
  await writeFiles(dir, { [BIG_ASSET]: data, ...extraFiles() })
  const manifestPath = join(dir, MANIFEST_FILENAME)
  const { manifest } = await compressDirectory(dir, {
    exclude: [BIG_ASSET],
    cache: join(REPO_ROOT, 'node_modules', '.cache', 'preencode-e2e'),
  })
  const zst = zstdCompressSync(data, {
    params: { [constants.ZSTD_c_compressionLevel]: 3, [constants.ZSTD_c_windowLog]: 23 },
    pledgedSrcSize: data.length,
  })
  const info = await stat(join(dir, BIG_ASSET))
  await writeFile(join(dir, `${BIG_ASSET}.zst`), zst)
  await utimes(join(dir, `${BIG_ASSET}.zst`), info.atime, info.mtime)
  const entry = manifest.files.find((f) => f.path === BIG_ASSET)
  if (!entry) throw new Error(`${BIG_ASSET} missing from the manifest`)
  entry.variants = [
    { format: 'zstd', encoding: 'zstd', path: `${BIG_ASSET}.zst`, size: zst.length, sha256: sha256(zst) },
  ]
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2))
}

/** Builds both sites under `dir` (created, world-readable for the servers' workers). */
export async function buildSites(dir: string): Promise<BuiltSites> {
  const keep = join(dir, 'site')
  const nokeep = join(dir, 'site-nokeep')
  await mkdir(dir, { recursive: true })
  await chmod(dir, 0o755)
  let source: BuiltSites['source'] = 'playground'
  if (!buildPlayground(keep)) {
    source = 'fixture'
    await writeFiles(keep, fixtureFiles())
  }
  await addBigZstdAsset(keep)
  process.stdout.write(`[e2e] site built from the ${source} in ${dir}\n`)
  await writeFiles(nokeep, { ...fixtureFiles(), ...extraFiles() })
  await compressDirectory(nokeep, {
    keepOriginals: false,
    cache: join(REPO_ROOT, 'node_modules', '.cache', 'preencode-e2e'),
  })
  return { keep, nokeep, source }
}

export async function loadManifest(root: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(root, MANIFEST_FILENAME), 'utf8')) as Manifest
}
