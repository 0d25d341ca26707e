// Successive releases of an npm package, downloaded from the registry with `npm pack` and
// unpacked. Downloads are kept in bench/node_modules/.cache/history (git-ignored), so a rerun
// reads them from disk; nothing downloaded is committed.
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { BENCH_ROOT } from '../lib/paths.ts'
import { runChild } from '../lib/util.ts'

const DOWNLOADS = join(BENCH_ROOT, 'node_modules', '.cache', 'history')

const STABLE = /^(\d+)\.(\d+)\.(\d+)$/

function compareVersions(a: string, b: string): number {
  const pa = STABLE.exec(a)!.slice(1).map(Number)
  const pb = STABLE.exec(b)!.slice(1).map(Number)
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!
  return 0
}

/**
 * The `count` consecutive stable releases (in version order, pre-releases left out) ending at
 * `last`, from `published` (the registry's version list).
 */
export function consecutiveReleases(published: readonly string[], last: string, count: number): string[] {
  const stable = published.filter((v) => STABLE.test(v)).sort(compareVersions)
  const end = stable.indexOf(last)
  if (end < 0) throw new Error(`version ${last} is not a published stable release`)
  if (end + 1 < count) throw new Error(`only ${end + 1} stable releases up to ${last}, ${count} wanted`)
  return stable.slice(end + 1 - count, end + 1)
}

async function npm(args: string[], cwd: string): Promise<string> {
  const child = await runChild('npm', args, { cwd, timeoutMs: 120_000 })
  if (child.code !== 0)
    throw new Error(`npm ${args.join(' ')} failed (exit ${child.code}): ${child.stderr.slice(-300)}`)
  return child.stdout
}

/** The registry's versions of `name` (one request, kept with the downloads). */
export async function publishedVersions(name: string): Promise<string[]> {
  await mkdir(DOWNLOADS, { recursive: true })
  return JSON.parse(await npm(['view', name, 'versions', '--json'], DOWNLOADS)) as string[]
}

/** `name@version` unpacked (the tarball's `package/` folder), downloading it on first use. */
export async function unpackedRelease(name: string, version: string): Promise<string> {
  const folder = join(DOWNLOADS, `${name.replace('/', '+')}@${version}`)
  if (existsSync(join(folder, 'package', 'package.json'))) return join(folder, 'package')
  const partial = `${folder}.partial`
  await rm(partial, { recursive: true, force: true })
  await mkdir(partial, { recursive: true })
  const tarball = (await npm(['pack', `${name}@${version}`, '--silent'], partial)).trim().split('\n').at(-1)!
  const tar = await runChild('tar', ['xzf', tarball], { cwd: partial })
  if (tar.code !== 0) throw new Error(`tar xzf ${tarball} failed: ${tar.stderr.slice(-300)}`)
  await rm(join(partial, tarball))
  await rm(folder, { recursive: true, force: true })
  await rename(partial, folder)
  return join(folder, 'package')
}
