// A deploy killed (SIGKILL, as `kill -9`) while it writes deltas, then run again (issue 29 item 4):
// the rerun must leave the site and the target as a clean deploy does: no `.tmp-*` file in the
// site's `.dict/` folders, and every variant and delta on the target decoding to its file. A
// preload wraps one `fs/promises` function and kills the process at its Nth call on a path holding
// a marker, so each window is hit exactly, with no timing: before the first delta's temporary file,
// between a complete temporary file and its rename, with deltas in place and the manifest not yet
// rewritten, and while the deltas are copied to the target.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib'
import { decodeWithDictionary } from '@preencode/core'
import { originalOfDeltaPath } from '@preencode/core/internal'
import { runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dictionaryId, sha256Of } from '../../../core/src/codecs/dictionary-hash.js'
import { BIN, cli, listing } from '../lifecycle-helpers.js'

const HOOK = `
import fs from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
const [op, marker, nth] = (process.env.PREENCODE_TEST_KILL ?? '').split('|')
if (op) {
  const original = fs[op]
  let calls = 0
  fs[op] = async function (...args) {
    if (args.some((a) => String(a).includes(marker)) && ++calls === Number(nth)) process.kill(process.pid, 'SIGKILL')
    return original.apply(this, args)
  }
  syncBuiltinESMExports()
}
`

/** Version `v` of asset `n`: versions differ in one function, so a delta is small. */
const asset = (n: number, v: number): string =>
  Array.from({ length: 700 }, (_, i) => `export function f${n}_${i}(x) { return x * ${i % 13} + "${i * 37 + n}" }\n`)
    .join('')
    .replace(`function f${n}_200(`, `function v${v}_${n}_200(`)

async function build(dir: string, v: number): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(join(dir, 'assets'), { recursive: true })
  await mkdir(join(dir, 'docs'), { recursive: true })
  const names: string[] = []
  for (let n = 0; n < 6; n++) {
    names.push(`assets/app${n}-${n}v${v}Abc12.js`)
    await writeFile(join(dir, names[n]!), asset(n, v))
  }
  for (let p = 0; p < 4; p++)
    await writeFile(
      join(dir, `docs/p${p}.html`),
      `<!doctype html><h1>page ${p}, build ${v}</h1>\n${'<p>text of a page</p>\n'.repeat(150)}`,
    )
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html>${names.map((n) => `<script type="module" src="/${n}"></script>`).join('')}\n${'<p>hi</p>\n'.repeat(200)}`,
  )
}

const DECODERS: Record<string, (body: Buffer) => Buffer> = {
  '.br': brotliDecompressSync,
  '.gz': gunzipSync,
  '.zst': zstdDecompressSync,
}

/** Every variant and delta in the target decodes to the file next to it. */
async function expectEverythingDecodes(www: string): Promise<void> {
  const files = await listing(www)
  const byId = new Map<string, string>()
  for (const path of files) byId.set(dictionaryId(sha256Of(await readFile(join(www, path)))), path)
  for (const path of files) {
    const original = originalOfDeltaPath(path)
    if (original !== undefined) {
      const id = path.slice(`${original}.dict/`.length).replace(/(\.[A-Za-z0-9]+)?\.dc[bz]$/, '')
      const dictionary = byId.get(id)
      expect(dictionary, `${path}: its dictionary is on the target`).toBeDefined()
      const decoded = await decodeWithDictionary(
        path.endsWith('.dcb') ? 'dcb' : 'dcz',
        await readFile(join(www, path)),
        await readFile(join(www, dictionary!)),
      )
      expect(decoded.equals(await readFile(join(www, original))), `${path} decodes to ${original}`).toBe(true)
      continue
    }
    const suffix = Object.keys(DECODERS).find((s) => path.endsWith(s))
    if (!suffix || !files.includes(path.slice(0, -suffix.length))) continue
    const decoded = DECODERS[suffix]!(await readFile(join(www, path)))
    expect(decoded.equals(await readFile(join(www, path.slice(0, -suffix.length)))), path).toBe(true)
  }
}

function killedDeploys(label: string, flags: string[], points: string[]): void {
  describe(`a deploy killed while it writes deltas, then run again${label}`, () => {
    let work: Awaited<ReturnType<typeof tempDir>>
    let hook: string
    /** The v2 site compressed, the v1 site deployed: copied before each kill. */
    let siteV2: string
    let wwwV1: string
    let cleanSite: string[]
    let cleanWww: string[]

    beforeAll(async () => {
      work = await tempDir('deploy-killed-deltas')
      hook = join(work.path, 'hook.mjs')
      await writeFile(hook, HOOK)
      siteV2 = join(work.path, 'site')
      wwwV1 = join(work.path, 'www-v1')
      await build(siteV2, 1)
      expect(cli(['compress', siteV2, '--no-cache', ...flags], work.path).status).toBe(0)
      expect(cli(['deploy', siteV2, '--to', wwwV1], work.path).status).toBe(0)
      // No cache: the build announces dictionaries but knows no previous version; the deploy
      // writes every delta, against what the target holds.
      await build(siteV2, 2)
      expect(cli(['compress', siteV2, '--no-cache', ...flags], work.path).status).toBe(0)
      // The clean deploy, to compare with.
      const site = join(work.path, 'clean-site')
      const www = join(work.path, 'clean-www')
      await cp(siteV2, site, { recursive: true, preserveTimestamps: true })
      await cp(wwwV1, www, { recursive: true, preserveTimestamps: true })
      const clean = cli(['deploy', site, '--to', www], work.path)
      expect(clean.status, clean.stderr).toBe(0)
      cleanSite = await listing(site)
      cleanWww = await listing(www)
      expect(cleanSite.filter((p) => p.endsWith('.dcb') || p.endsWith('.dcz')).length).toBeGreaterThanOrEqual(6)
      await expectEverythingDecodes(www)
    }, 120_000)
    afterAll(async () => {
      await work?.remove()
    })

    for (const point of points) {
      it(`killed at ${point}: the rerun leaves the site and the target as a clean deploy`, async () => {
        const name = `${label}${point}`.replace(/[^A-Za-z0-9]+/g, '-')
        const site = join(work.path, `site-${name}`)
        const www = join(work.path, `www-${name}`)
        await cp(siteV2, site, { recursive: true, preserveTimestamps: true })
        await cp(wwwV1, www, { recursive: true, preserveTimestamps: true })
        const killed = await runCollected(process.execPath, ['--import', hook, BIN, 'deploy', site, '--to', www], {
          cwd: work.path,
          env: { ...process.env, CI: '1', NO_COLOR: '1', PREENCODE_TEST_KILL: point },
        })
        expect(killed.signal, killed.stderr).toBe('SIGKILL')
        const rerun = cli(['deploy', site, '--to', www], work.path)
        expect(rerun.status, rerun.stderr).toBe(0)
        expect(rerun.stderr).not.toMatch(/\n\s+at /)
        expect(await listing(site)).toEqual(cleanSite)
        expect(await listing(www)).toEqual(cleanWww)
        await expectEverythingDecodes(www)
      })
    }
  })
}

killedDeploys(
  '',
  [],
  [
    'open|.dict/|1', // the first delta's temporary file is about to be created
    'rename|.dict/|1', // a complete temporary file, not yet renamed
    'rename|.dict/|5', // some deltas in place, one temporary file
    'rename|.preencode-manifest.json|1', // every delta in place, the manifest not rewritten
    'copyFile|.dict/|2', // the deltas being copied to the target
  ],
)

// With page deltas: a page's deltas keep their name from one build to the next (the dictionary's id).
killedDeploys(
  ' (--pages)',
  ['--pages'],
  [
    'rename|.html.dict/|1',
    'copyFile|.html.dict/|1',
    'copyFile|docs/p1.html|1', // the pages' phase: deltas up, pages not yet
  ],
)
