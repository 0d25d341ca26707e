// One site's history, deploy by deploy: each release is laid out as the site folder (the same
// folder every time, as a build would write it), compressed by the preencode CLI as a user runs
// it (cache kept between deploys, so deltas come from the build history; `--pages` for a docs
// site), deployed with `preencode deploy <dir> --to <folder>` (deltas against what the folder
// holds), and the files a returning visitor fetches are listed with what each method sends.
import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join, posix } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Manifest } from '@preencode/core'
import { CLI_BIN } from '../lib/paths.ts'
import { listFiles, runChild } from '../lib/util.ts'
import type { DeployVisit, VisitedFile } from './replay.ts'
import type { HistorySite } from './sites.ts'

export const METHODS = ['preencode', 'br11', 'gzip9', 'cdn4'] as const
export type Method = (typeof METHODS)[number]

export interface DeployRecord {
  version: string
  visit: DeployVisit<Method>
  /** Wall time of `preencode compress` (variants, page dictionary, deltas from the build history). */
  compressMs: number
  /** CPU time (user + system, its worker threads included) of that `preencode compress`: what the machine's load does not inflate. */
  compressCpuMs: number
  deployMs: number
  /** Pages and assets the visitor fetched whose bytes changed since the previous release. */
  changed: number
  /** The original bytes of the files the visit loads (not preencode's page dictionary), for the bound (bound.ts). */
  visited: ReadonlyMap<string, Buffer>
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')
/** The base64 id RFC 9842 names a dictionary by (`Available-Dictionary`), from a hex sha256. */
const dictionaryId = (hex: string): string => Buffer.from(hex, 'hex').toString('base64')

type Baselines = Record<'br11' | 'gzip9' | 'cdn4', number>
const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Sizes of the alternatives, by content: each distinct content is encoded once, in zlib's thread
 * pool (a synchronous brotli 11 of a multi-megabyte chunk held up every site's replay).
 */
const baselineCache = new Map<string, Promise<Baselines>>()
function baselines(bytes: Buffer, hash: string): Promise<Baselines> {
  let sizes = baselineCache.get(hash)
  if (!sizes) {
    const brotli = async (quality: number): Promise<number> =>
      (
        await brotliAsync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      ).byteLength
    // What a server sends: the encoding, or the file itself when that is not smaller.
    const sent = (encoded: number): number => Math.min(bytes.byteLength, encoded)
    sizes = Promise.all([brotli(11), gzipAsync(bytes, { level: 9 }), brotli(4)]).then(([br11, gz, br4]) => ({
      br11: sent(br11),
      gzip9: sent(gz.byteLength),
      cdn4: sent(br4),
    }))
    baselineCache.set(hash, sizes)
  }
  return sizes
}

const ASSET_REF = /["'`]([\w@~./-]+\.(?:m?js|css))(?:\?[^"'`]*)?["'`]/g

/** The entry pages and every script and style they load, transitively (references that exist in the site). */
function appVisit(entries: readonly string[], files: ReadonlyMap<string, Buffer>): string[] {
  const seen = new Set<string>()
  const queue = entries.filter((e) => files.has(e))
  while (queue.length) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    seen.add(path)
    for (const match of files.get(path)!.toString('latin1').matchAll(ASSET_REF)) {
      const ref = match[1]!
      for (const candidate of [posix.join(posix.dirname(path), ref), posix.normalize(ref.replace(/^\//, ''))])
        if (files.has(candidate) && !seen.has(candidate)) queue.push(candidate)
    }
  }
  return [...seen].sort()
}

export interface SiteRun {
  site: HistorySite
  /** Scratch folder of this site: the site folder, the deploy target, the cache. */
  scratch: string
  /** Docs: the fixed sample of pages (from the first release), set on the first deploy. */
  sample?: string[]
  previous?: ReadonlyMap<string, Buffer>
}

/** Runs the CLI under GNU time (`/usr/bin/time`): its wall time and CPU time (user + system). */
async function cli(args: string[], scratch: string): Promise<{ wallMs: number; cpuMs: number }> {
  const times = join(scratch, 'cli-times.txt')
  const child = await runChild('/usr/bin/time', ['-f', '%U %S', '-o', times, process.execPath, CLI_BIN, ...args], {
    timeoutMs: 20 * 60_000,
  })
  if (child.code !== 0)
    throw new Error(`preencode ${args[0]} failed (exit ${child.code}): ${child.stderr.slice(-400).trim()}`)
  const [user, system] = (await readFile(times, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number)
  return { wallMs: child.wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000 }
}

/** Lays out, compresses and deploys one release; lists what the returning visitor fetches. */
export async function deployRelease(run: SiteRun, version: string, packageRoot: string): Promise<DeployRecord> {
  const { site, scratch } = run
  const dir = join(scratch, 'site')
  await rm(dir, { recursive: true, force: true })
  const source = join(packageRoot, site.folder)
  const originals = new Map<string, Buffer>()
  for (const path of [...(await listFiles(source)).keys()].filter(site.publish).sort()) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await copyFile(join(source, path), join(dir, path))
    originals.set(path, await readFile(join(source, path)))
  }
  const flags = [
    '--cache-dir',
    join(scratch, 'cache'),
    '--quiet',
    ...(site.pages ? ['--pages'] : []),
    ...(site.assets ? ['--asset-dictionary'] : []),
  ]
  const compressed = await cli(['compress', dir, ...flags], scratch)
  const deployMs = (await cli(['deploy', dir, '--to', join(scratch, 'target'), '--json'], scratch)).wallMs
  const manifest = JSON.parse(await readFile(join(dir, '.preencode-manifest.json'), 'utf8')) as Manifest
  const entries = new Map(manifest.files.map((f) => [f.path, f]))

  const changedSince = (path: string): boolean => !run.previous?.get(path)?.equals(originals.get(path)!)
  let paths: string[]
  if (site.kind === 'app') paths = appVisit(site.entries ?? ['index.html'], originals)
  else {
    const pages = [...originals.keys()].filter((p) => p.endsWith('.html'))
    run.sample ??= pages.filter((_, i) => i % 4 === 0)
    paths = [...new Set([...run.sample.filter((p) => originals.has(p)), ...pages.filter(changedSince)])].sort()
  }
  const changed = run.previous ? paths.filter(changedSince).length : paths.length
  const visited = new Map(paths.filter((p) => originals.has(p)).map((p) => [p, originals.get(p)!]))
  run.previous = originals

  const preencode: VisitedFile[] = []
  const visit = { preencode, br11: [], gzip9: [], cdn4: [] } as { [M in Method]: VisitedFile[] }
  const dictionaryLink = /<link rel="compression-dictionary" href="([^"]+)"/g
  const linked = new Set<string>()
  for (const path of paths.filter((p) => p.endsWith('.html')))
    for (const link of (await readFile(join(dir, path))).toString('latin1').matchAll(dictionaryLink))
      linked.add(posix.normalize(posix.join(posix.dirname(path), link[1]!)))
  for (const path of [...new Set([...paths, ...linked])].sort()) {
    const file = entries.get(path)
    if (!file) throw new Error(`${site.slug} ${version}: ${path} is not in the manifest`)
    preencode.push({
      path,
      hash: dictionaryId(file.sha256),
      bytes: {
        full: Math.min(file.size, ...file.variants.filter((v) => v.format !== 'gzip').map((v) => v.size)),
        deltas: (file.deltas ?? []).map((d) => ({ dictionary: d.dictionary, size: d.size })),
      },
      ...(file.useAsDictionary === undefined
        ? {}
        : { dictionary: { match: file.useAsDictionary, ...(file.matchDest ? { matchDest: file.matchDest } : {}) } }),
      ...(linked.has(path) ? { linkedDictionary: true } : {}),
    })
    const original = originals.get(path)
    if (!original) continue // the page dictionary: only preencode's visitors fetch it
    const hash = sha256(original)
    const sizes = await baselines(original, hash)
    for (const method of ['br11', 'gzip9', 'cdn4'] as const)
      visit[method].push({ path, hash, bytes: { full: sizes[method] } })
  }
  return { version, visit, compressMs: compressed.wallMs, compressCpuMs: compressed.cpuMs, deployMs, changed, visited }
}
