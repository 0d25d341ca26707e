/**
 * `preencode config cloudflare <dir> --out <folder>`: a Worker (module syntax) and the
 * `wrangler.jsonc` whose static-assets binding is the compressed site, so `wrangler deploy` (or
 * `wrangler dev`) from that folder serves the stored variants byte for byte. Four files go into
 * the folder and one into the site:
 *
 * - `worker.js`: the entry, three lines: the site data and the runtime;
 * - `preencode-runtime.js`: the shipped runtime (`runtime.ts` bundled with the shared
 *   negotiation), the same for every site;
 * - `preencode-site.js`: which representations exist (`site-data.ts`), from the manifest;
 * - `wrangler.jsonc`: assets = the site folder, `run_worker_first` so every request reaches the
 *   Worker, and no HTML or 404 handling of the binding's own (the Worker asks for exact files);
 * - `<site>/.assetsignore`: keeps preencode's state and every dotfile and dot-folder but
 *   `/.well-known/` (`.env`, `docs/.secret.json`, `.git/`) out of the upload: anything else bound
 *   to the same assets would serve them. To upload one anyway, add a `!/<path>` line after ours.
 */
import { readFileSync } from 'node:fs'
import { MANIFEST_FILENAME, type Manifest, type OptionLabel, userError } from '@preencode/core'
import { type ConventionOptions, DEFAULT_CONVENTIONS } from '../http/conventions.js'
import { isDotPath } from '../http/dotfiles.js'
import { resolveConventions } from '../shared/conventions.js'
import { pathsOutsideSite } from '../shared/manifest-paths.js'
import { fail, KEY_LABEL } from '../shared/option-error.js'
import { checkWorkerLimits, WORKERS_PLANS, type WorkersPlan } from './limits.js'
import { workerSiteData } from './site-data.js'

/** The Cloudflare Worker generators' options (`cloudflareWorkerFiles()`, `cloudflareWrangler()`). */
export interface CloudflareWorkerOptions extends ConventionOptions {
  /**
   * Answer a path the site has no file for with the site's `404.html` (status 404, its variants).
   * @default true
   */
  notFoundPage?: boolean
  /**
   * The assets directory as `wrangler.jsonc` names it: the site folder, relative to the folder
   * the files are written to (the CLI computes it from `<dir>` and `--out`).
   * @default '../dist'
   */
  root?: string
  /**
   * The Worker's name in `wrangler.jsonc`.
   * @default 'preencode-site'
   */
  name?: string
  /**
   * The Workers plan whose limits the site must fit (script size and asset count).
   * @default 'free'
   */
  plan?: WorkersPlan
  /**
   * `compatibility_date` of the Worker.
   * @default '2026-11-01'
   */
  compatibilityDate?: string
  /**
   * File served for a URL ending in `/`.
   * @default 'index.html'
   */
  indexFile?: string
}

/** The Worker's options with every default applied. */
export type ResolvedCloudflareWorkerOptions = Required<CloudflareWorkerOptions>

const DEFAULT_CLOUDFLARE_OPTIONS = Object.freeze({
  root: '../dist',
  name: 'preencode-site',
  plan: 'free',
  compatibilityDate: '2026-11-01',
  indexFile: 'index.html',
  ...DEFAULT_CONVENTIONS,
  notFoundPage: true,
}) satisfies ResolvedCloudflareWorkerOptions

/**
 * Files the Worker never serves and the upload leaves out: preencode's state, and `.assetsignore`
 * itself (wrangler never uploads it; a later `compress` lists it in the manifest like any file).
 */
const CLOUDFLARE_HIDDEN_FILES: readonly string[] = [MANIFEST_FILENAME, '.preencode-deploy-state.json', '.assetsignore']

/**
 * `.assetsignore` lines (gitignore syntax, read by wrangler) after preencode's own files: every
 * dotfile and dot-folder, at any depth, then `/.well-known/` at the root back in (RFC 8615); a
 * dotfile under it stays out. The same rule as the generated configs' (`http/dotfiles.ts`).
 */
const DOTFILE_IGNORE_LINES: readonly string[] = ['.*', '!/.well-known/']

/** What `config cloudflare` writes: files for the output folder, and files for the site folder. */
export interface CloudflareWorkerFiles {
  files: Record<string, string>
  siteFiles: Record<string, string>
}

export function resolveCloudflareOptions(
  options: CloudflareWorkerOptions = {},
  label: OptionLabel = KEY_LABEL,
): ResolvedCloudflareWorkerOptions {
  const resolved = { ...DEFAULT_CLOUDFLARE_OPTIONS, ...options }
  if (typeof resolved.root !== 'string' || resolved.root === '')
    fail(
      `${label('root')} is ${JSON.stringify(resolved.root)}; name the site folder relative to the Worker's folder, e.g. '../dist'.`,
    )
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(resolved.name))
    fail(
      `${label('name')} is ${JSON.stringify(resolved.name)}; a Worker name is lower-case letters, digits and dashes (at most 63).`,
    )
  if (!WORKERS_PLANS.includes(resolved.plan))
    fail(`${label('plan')} is ${JSON.stringify(resolved.plan)}; accepted: ${WORKERS_PLANS.join(', ')}.`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(resolved.compatibilityDate))
    fail(
      `${label('compatibilityDate')} is ${JSON.stringify(resolved.compatibilityDate)}; use a date like '2026-11-01'.`,
    )
  if (typeof resolved.indexFile !== 'string' || resolved.indexFile === '' || resolved.indexFile.includes('/'))
    fail(`${label('indexFile')} is ${JSON.stringify(resolved.indexFile)}; use a file name such as 'index.html'.`)
  if (typeof resolved.notFoundPage !== 'boolean')
    fail(`${label('notFoundPage')} is ${JSON.stringify(resolved.notFoundPage)}; accepted: true, false.`)
  return { ...resolved, ...resolveConventions(options, label) }
}

/**
 * The shipped runtime: beside this module in the build (`dist/cloudflare/`). Tests run this
 * module from `src/`, where only the build's bundle exists, so that is the second place looked.
 */
function runtimeSource(): string {
  const built = new URL('./preencode-runtime.js', import.meta.url)
  const fromSource = new URL('../../dist/cloudflare/preencode-runtime.js', import.meta.url)
  try {
    return readFileSync(import.meta.url.endsWith('.ts') ? fromSource : built, 'utf8')
  } catch (error) {
    throw userError(
      'server-config',
      'cloudflare: dist/cloudflare/preencode-runtime.js is missing from @preencode/server-config; rebuild the package (pnpm build).',
      { cause: error },
    )
  }
}

/** The Worker's entry module. Depends on nothing but the generator's name. */
export function cloudflareWorker(manifest: Manifest, _options: CloudflareWorkerOptions = {}): string {
  return `// generated by preencode — do not edit (from ${manifest.generator}). A Cloudflare Worker serving the
// pre-compressed site in the static-assets binding; see preencode-runtime.js and preencode-site.js.
import site from './preencode-site.js'
import { createWorker } from './preencode-runtime.js'

export default createWorker(site)
`
}

/** `wrangler.jsonc` for the Worker. */
export function cloudflareWrangler(manifest: Manifest, options: CloudflareWorkerOptions = {}): string {
  const resolved = resolveCloudflareOptions(options)
  const config = {
    name: resolved.name,
    main: 'worker.js',
    compatibility_date: resolved.compatibilityDate,
    assets: {
      directory: resolved.root,
      binding: 'ASSETS',
      run_worker_first: true,
      html_handling: 'none',
      not_found_handling: 'none',
    },
  }
  return `// generated by preencode — do not edit (from ${manifest.generator}).
// \`wrangler deploy\` from this folder uploads the assets (the compressed site, variants and deltas
// included), then the Worker, which answers every request (run_worker_first) with the stored bytes.
${JSON.stringify(config, null, 2)}
`
}

/** Every file, with Workers' limits checked (throws naming the file or limit). */
export function cloudflareWorkerFiles(
  manifest: Manifest,
  options: CloudflareWorkerOptions = {},
): CloudflareWorkerFiles {
  const resolved = resolveCloudflareOptions(options)
  // The Worker fetches what the data names from the assets: only paths inside the site.
  const outside = manifest.files.flatMap(pathsOutsideSite)
  if (outside.length > 0)
    throw userError(
      'server-config',
      `${MANIFEST_FILENAME} names ${JSON.stringify(outside[0])}, a path out of the site; the Worker is not generated from it. Rebuild to regenerate the manifest.`,
      { code: 'BAD_INPUT' },
    )
  const hidden = new Set(CLOUDFLARE_HIDDEN_FILES)
  const served = {
    ...manifest,
    // Dotfiles are not uploaded (`.assetsignore`): their names stay out of the Worker's data too.
    files: manifest.files.filter(
      (f) => !hidden.has(f.path.slice(f.path.lastIndexOf('/') + 1)) && !isDotPath(`/${f.path}`),
    ),
  }
  const conventions = { cleanUrls: resolved.cleanUrls, spa: resolved.spa, notFoundPage: resolved.notFoundPage }
  const site = workerSiteData(served, { index: resolved.indexFile, hidden: [...CLOUDFLARE_HIDDEN_FILES], conventions })
  // A module rather than JSON: wrangler and Miniflare both load it as it is, no loader rules needed.
  const data = `// generated by preencode — do not edit (from ${manifest.generator}): the site's representations.\nexport default ${JSON.stringify(site)}\n`
  const worker = cloudflareWorker(manifest, resolved)
  const runtime = runtimeSource()
  checkWorkerLimits(served, [worker, runtime, data], resolved.plan)
  return {
    files: {
      'worker.js': worker,
      'preencode-runtime.js': runtime,
      'preencode-site.js': data,
      'wrangler.jsonc': cloudflareWrangler(manifest, resolved),
    },
    siteFiles: {
      '.assetsignore': `# generated by preencode — do not edit. Not uploaded to Cloudflare: preencode's own state, dotfiles and dot-folders but /.well-known/.\n${[
        ...CLOUDFLARE_HIDDEN_FILES.filter((f) => f !== '.assetsignore').map((f) => `/${f}`),
        ...DOTFILE_IGNORE_LINES,
      ].join('\n')}\n`,
    },
  }
}
