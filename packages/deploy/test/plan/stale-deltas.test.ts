// Issue 30.1: a delta on a target is always a delta of the file live beside it. Several builds of
// a site with a shared page dictionary (`preencode compress --pages`, the real binary) are
// deployed one after the other, with default flags, to a folder, over rsync and to S3 (MinIO):
// after each deploy, every `.dcb`/`.dcz` the target holds decodes, with the dictionary its
// header names, to the file next to it. Before the fix a page delta against a dictionary that
// had left the versions window stayed, and nginx served it: an old page.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { originalOfDeltaPath } from '@preencode/core/internal'
import { type DeployTarget, deploy, localTarget, rsyncTarget } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { nginxConfig } from '@preencode/server-config'
import { hasTool, nginxMainConfig, runCollected, startNginx, tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { createBucket, credentials, getObject, listKeys, startMinio } from '../helpers.js'

const BIN = join(import.meta.dirname, '../../../cli/dist/bin.js')
const PAGES = 8

/** A file some build wrote: any of them may be a dictionary a visitor holds. */
interface Built {
  name: string
  bytes: Buffer
}

/** Build `n` of an 8-page site, compressed by the real CLI with the shared page dictionary. */
async function build(site: string, n: number, seen: Map<string, Built>): Promise<void> {
  await rm(site, { recursive: true, force: true })
  await mkdir(site, { recursive: true })
  const shared = Array.from({ length: 80 }, (_, i) => `<p>shared paragraph ${i} of the site, with some words</p>`)
  for (let p = 1; p <= PAGES; p++) {
    const body = `<!doctype html><html><head><title>page ${p}</title></head><body>${shared.join('\n')}<p>page ${p} of build ${n}: ${p * 1000 + n}</p></body></html>\n`
    await writeFile(join(site, `p${p}.html`), body)
  }
  const run = await runCollected(process.execPath, [BIN, 'compress', site, '--pages', '--no-cache', '--quiet'], {
    env: { ...process.env, CI: '1' },
  })
  expect(run.code, run.stderr).toBe(0)
  // Every file of every build, by sha256: the dictionaries visitors may still hold.
  for (const entry of await readdir(site, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const bytes = await readFile(join(entry.parentPath, entry.name))
    seen.set(createHash('sha256').update(bytes).digest('hex'), { name: entry.name, bytes })
  }
}

/** The dictionary hash a delta's header names (RFC 9842: dcb after 4 bytes, dcz after 8). */
function dictionaryHash(encoding: 'dcb' | 'dcz', body: Buffer): string {
  const start = encoding === 'dcb' ? 4 : 8
  return body.subarray(start, start + 32).toString('hex')
}

/** Deltas on the target that do not decode to the file beside them, as `delta -> why`. */
async function staleDeltas(
  keys: readonly string[],
  read: (key: string) => Promise<Buffer>,
  dictionaries: ReadonlyMap<string, Built>,
): Promise<{ total: number; stale: string[] }> {
  const stale: string[] = []
  let total = 0
  for (const key of keys) {
    const original = originalOfDeltaPath(key)
    if (original === undefined) continue
    total++
    const encoding = key.endsWith('.dcb') ? 'dcb' : 'dcz'
    const body = await read(key)
    const dictionary = dictionaries.get(dictionaryHash(encoding, body))
    if (!dictionary) {
      stale.push(`${key}: its dictionary was never built`)
      continue
    }
    const live = await read(original).catch(() => undefined)
    const decoded = await decodeWithDictionary(encoding, body, dictionary.bytes)
    if (!live || !decoded.equals(live)) stale.push(`${key}: not the live ${original}`)
  }
  return { total, stale }
}

async function folderKeys(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
}

/** Deploys `builds` builds with default flags (and `flags`); checks the target after each. */
async function deployBuilds(
  work: string,
  builds: number,
  target: () => DeployTarget,
  list: () => Promise<{ keys: string[]; read: (key: string) => Promise<Buffer> }>,
  options: { versions?: number; delete?: boolean; keep?: number } = {},
): Promise<{ site: string; dictionaries: Map<string, Built>; deltas: number }> {
  const site = join(work, 'site')
  const dictionaries = new Map<string, Built>()
  let deltas = 0
  for (let n = 1; n <= builds; n++) {
    await build(site, n, dictionaries)
    await deploy({
      dir: site,
      target: target(),
      ...(options.versions ? { deltas: { versions: options.versions } } : {}),
      ...(options.delete ? { delete: true, keep: { deploys: options.keep ?? 0 } } : {}),
    })
    const { keys, read } = await list()
    const { total, stale } = await staleDeltas(keys, read, dictionaries)
    expect(stale, `after build ${n}`).toEqual([])
    deltas = total
  }
  return { site, dictionaries, deltas }
}

const folder = (root: string) => async () => ({
  keys: await folderKeys(root),
  read: (key: string) => readFile(join(root, key)),
})

/** GET `path` from nginx with a dictionary; the body decoded as its Content-Encoding says. */
function fetchWithDictionary(url: string, hash: Buffer): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        headers: {
          'accept-encoding': 'gzip, deflate, br, zstd, dcb, dcz',
          'available-dictionary': `:${hash.toString('base64')}:`,
          'sec-fetch-dest': 'document',
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'] as string | undefined, body: Buffer.concat(chunks) }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe.skipIf(!existsSync(BIN))('deltas on a target are deltas of the live file (issue 30.1)', () => {
  it('folder: 7 builds with default flags; nginx answers every old dictionary with the live page', async () => {
    const tmp = await tempDir('stale-deltas-folder')
    try {
      const www = join(tmp.path, 'www')
      const { site, dictionaries, deltas } = await deployBuilds(tmp.path, 7, () => localTarget(www), folder(www))
      expect(deltas).toBeGreaterThan(0)
      if (!hasTool('nginx')) return
      const manifest = await readManifest(site)
      const server = await startNginx(
        (port, root) =>
          nginxMainConfig(root, {
            ...(process.getuid?.() === 0 ? { user: 'root' } : {}),
            accessLog: 'off',
            http: nginxConfig(manifest, { root: www, listen: `127.0.0.1:${port}` }),
          }),
        { dir: join(tmp.path, 'nginx') },
      )
      try {
        const live = await readFile(join(www, 'p3.html'))
        const used = new Set<string>()
        // Every build's page dictionary: the window's and those that left it.
        const pageDictionaries = [...dictionaries].filter(([, built]) =>
          /^preencode-dictionary-.*\.txt$/.test(built.name),
        )
        expect(pageDictionaries.length).toBe(7)
        for (const [hash, { bytes: dictionary }] of pageDictionaries) {
          const answer = await fetchWithDictionary(`${server.url}/p3.html`, Buffer.from(hash, 'hex'))
          if (answer.encoding === 'dcb' || answer.encoding === 'dcz') used.add(hash)
          const body =
            answer.encoding === 'dcb' || answer.encoding === 'dcz'
              ? await decodeWithDictionary(answer.encoding, answer.body, dictionary)
              : answer.encoding === undefined
                ? answer.body
                : undefined
          if (body === undefined) continue
          expect(body.equals(live), `p3.html with dictionary ${hash.slice(0, 12)} (${answer.encoding})`).toBe(true)
        }
        // The window's dictionaries are still used: the fix deletes only what is stale.
        expect(used.size).toBeGreaterThan(0)
      } finally {
        await server.stop()
      }
    } finally {
      await tmp.remove()
    }
  })

  it('folder with --delete --keep 3: stale deltas go at once, whatever keep says', async () => {
    const tmp = await tempDir('stale-deltas-keep')
    try {
      const www = join(tmp.path, 'www')
      await deployBuilds(tmp.path, 4, () => localTarget(www), folder(www), { versions: 1, delete: true, keep: 3 })
    } finally {
      await tmp.remove()
    }
  })

  it('rsync', async ({ skip }) => {
    skip(!hasTool('rsync'), 'missing on this machine: rsync')
    const tmp = await tempDir('stale-deltas-rsync')
    try {
      const www = join(tmp.path, 'www')
      await mkdir(www)
      await deployBuilds(tmp.path, 4, () => rsyncTarget(www), folder(www), { versions: 1 })
    } finally {
      await tmp.remove()
    }
  })

  it('S3 (MinIO)', async () => {
    const tmp = await tempDir('stale-deltas-s3')
    const minio = await startMinio()
    try {
      await createBucket(minio, 'deltas')
      const target = () => s3Target({ bucket: 'deltas', prefix: 'www', endpoint: minio.endpoint, credentials })
      const list = async () => ({
        keys: await listKeys(minio, 'deltas', 'www/'),
        read: async (key: string) => (await getObject(minio, 'deltas', `www/${key}`)).body,
      })
      await deployBuilds(tmp.path, 4, target, list, { versions: 1 })
    } finally {
      await minio.remove()
      await tmp.remove()
    }
  })
})
