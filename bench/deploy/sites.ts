// The sites the deploy part deploys, each with how its output is made and how one change to it
// is made: the built playground, and a copy of bench/app built with preencode().
import { appendFile, cp, readdir, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { appEntries, buildAppOrThrow, copyApp } from '../lib/app-build/index.ts'
import type { BenchContext } from '../lib/context.ts'
import type { Packages } from '../lib/packages.ts'
import { PLAYGROUND, REPO_ROOT } from '../lib/paths.ts'
import { firstLine, runChild } from '../lib/util.ts'

export const MANIFEST = '.preencode-manifest.json'

/** A site to deploy: how its output is made, and how one change to it is made. */
export interface SiteSource {
  name: string
  from: string
  /** Writes the site (files, variants, manifest) into `site`. */
  prepare(site: string): Promise<void>
  /** Changes one thing and brings `site` up to date; returns what changed, for the table. */
  change(site: string): Promise<string>
}

/** The built playground; the change is one output script edited in place, then recompressed. */
export function playgroundSource(
  core: Packages['@preencode/core'],
  playground: { dir: string; from: string },
  cache: string,
): SiteSource {
  return {
    name: 'the built playground',
    from: playground.from,
    async prepare(site) {
      await cp(playground.dir, site, { recursive: true })
      // The manifest must describe this copy (sizes, hashes, mtimes): recompress in place.
      await core.compress(site, { cache })
    },
    async change(site) {
      const changed = await scriptToChange(site)
      await appendFile(join(site, changed), `\n/* bench: changed at ${new Date().toISOString()} */\n`)
      await core.compress(site, { cache })
      return `output ${changed} edited (same name), variants remade`
    },
  }
}

/**
 * bench/app built with preencode(); the change is one source file edited and the app rebuilt,
 * so content hashes move: the changed chunk, the chunks and HTML that name it, and deletions.
 */
export function benchAppSource(ctx: BenchContext, dir: string): SiteSource {
  const app = join(dir, 'app')
  const cache = ctx.shared.preencodeCache ?? join(dir, 'app-cache')
  const source = ctx.quick ? 'src/scene.ts' : 'src/chart-render.ts'
  const build = (site: string) =>
    buildAppOrThrow({
      tool: 'preencode',
      appRoot: app,
      outDir: site,
      cacheDir: cache,
      entries: appEntries(ctx, app),
      resultFile: join(dir, 'app-build.json'),
    })
  return {
    name: 'bench/app built with preencode()',
    from: `a copy of bench/app built by the bench${ctx.shared.preencodeCache ? " with the build part's warm cache" : ' (cold cache)'}`,
    async prepare(site) {
      await copyApp(app)
      await build(site)
    },
    async change(site) {
      await appendFile(join(app, source), `\nconsole.info('bench: rebuilt at ${new Date().toISOString()}')\n`)
      await build(site)
      return `source ${source} edited, app rebuilt`
    },
  }
}

/** The largest script of at most 512 KiB (a typical app chunk, not a multi-MB worker), else the smallest. */
async function scriptToChange(site: string): Promise<string> {
  const scripts: Array<{ path: string; size: number }> = []
  for (const entry of await readdir(site, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue
    const path = join(entry.parentPath, entry.name)
    scripts.push({ path, size: (await stat(path)).size })
  }
  if (scripts.length === 0) throw new Error(`no script in ${site} to change`)
  scripts.sort((a, b) => b.size - a.size)
  const pick = scripts.find((s) => s.size <= 512 * 1024) ?? scripts[scripts.length - 1]!
  return relative(site, pick.path).split(sep).join('/')
}

/** playground/dist if it was built with the plugin (it has a manifest), else a fresh build. */
export async function playgroundSite(
  ctx: BenchContext,
  dir: string,
): Promise<{ dir: string; from: string } | { why: string }> {
  const dist = join(PLAYGROUND, 'dist')
  if (
    await stat(join(dist, MANIFEST)).then(
      () => true,
      () => false,
    )
  )
    return { dir: dist, from: 'copied from playground/dist' }
  ctx.log('deploy: playground/dist has no manifest; building the playground…')
  const out = join(dir, 'playground-dist')
  const run = await runChild(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir'],
    { cwd: PLAYGROUND, timeoutMs: 10 * 60_000 },
  )
  if (
    run.code === 0 &&
    (await stat(join(out, MANIFEST)).then(
      () => true,
      () => false,
    ))
  )
    return { dir: out, from: 'built by the bench' }
  return {
    why: `the playground is not built and \`vite build\` in playground/ failed: ${firstLine(run.stderr || run.stdout || 'no manifest written')}`,
  }
}
