// Issue 36.2, the servers whose ETags are size and mtime (nginx, Apache, Caddy): builds that pin
// mtimes give a changed file of the same length the same size and mtime, and `deploy` keeps the
// source's mtimes. A deploy to a folder never stores a changed file with the size and mtime of a
// version it replaces (retime.ts): real nginx and Caddy, with the generated config, answer a browser
// holding an older version's ETag with the new bytes, original and variant, over three versions
// (the second one retimed, the third past it). And the manifest the deploy leaves records the
// mtimes the target holds, so the handler still gives the content-hash ETag.
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { compress, readManifest } from '@preencode/core'
import { type DeployTarget, deploy, localTarget, rsyncTarget } from '@preencode/deploy'
import { caddyConfig, createPreencodeHandler, nginxConfig } from '@preencode/server-config'
import { hasTool, nginxMainConfig, type StartedServer, startCaddy, startNginx, tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'

const PINNED = new Date('2026-01-01T00:00:00Z')
const page = (word: string): string => `<!doctype html><title>${word}</title>\n${`<p>version ${word}</p>\n`.repeat(80)}`
// Same size, same size, longer, then the first size again: no version may repeat an ETag.
const VERSIONS = ['ONE', 'TWO', 'SEVEN', 'SIX'].map(page)

interface Answer {
  status: number
  etag: string | undefined
  page: string
}

function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const body = Buffer.concat(chunks)
        const decoded = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(body) : body
        done({ status: res.statusCode ?? 0, etag: res.headers.etag, page: decoded.toString() })
      })
    })
    req.on('error', fail)
    req.end()
  })
}

/** Build `text` as a pinned-mtime build does, compressed, deployed to `www` with default flags. */
async function release(site: string, target: DeployTarget, text: string): Promise<void> {
  await writeFile(join(site, 'index.html'), text)
  await utimes(join(site, 'index.html'), PINNED, PINNED)
  await compress(site, { cache: false, formats: ['brotli', 'gzip'] })
  await deploy({ dir: site, target })
}

const EMPTY = { version: 1 as const, generator: 'test', formats: ['brotli' as const, 'gzip' as const], files: [] }

/** A real server with the generated config for `www`, started in `dir`. */
const SERVERS: Record<'nginx' | 'caddy', (www: string, dir: string) => Promise<StartedServer>> = {
  nginx: (www, dir) =>
    startNginx(
      (port, root) =>
        nginxMainConfig(root, {
          ...(process.getuid?.() === 0 ? { user: 'root' } : {}),
          accessLog: 'off',
          http: nginxConfig(EMPTY, { root: www, listen: `127.0.0.1:${port}` }),
        }),
      { dir },
    ),
  caddy: (www, dir) =>
    startCaddy((port) => caddyConfig(EMPTY, { root: www, address: `http://127.0.0.1:${port}` }), { dir }),
}

const CASES: [string, keyof typeof SERVERS, string, (www: string) => DeployTarget][] = [
  ['folder', 'nginx', 'nginx', localTarget],
  ['rsync', 'nginx', 'rsync', (www) => rsyncTarget(www)],
  ['folder', 'caddy', 'caddy', localTarget],
]

describe('a deploy never stores a changed file with an earlier version’s size and mtime (issue 36.2)', () => {
  it.each(CASES)(
    '%s target, %s: an older version’s ETag gets the new page; the handler gives the content hash',
    async (_, serverName, tool, targetOf) => {
      if (!hasTool(serverName) || !hasTool(tool)) return
      const tmp = await tempDir('same-size-deploy')
      try {
        const site = join(tmp.path, 'site')
        const www = join(tmp.path, 'www')
        await mkdir(site)
        await release(site, targetOf(www), VERSIONS[0]!)
        const server = await SERVERS[serverName](www, join(tmp.path, serverName))
        try {
          const url = `${server.url}/index.html`
          const held: { coding: string; etag: string }[] = []
          for (let v = 0; v < VERSIONS.length; v++) {
            if (v > 0) await release(site, targetOf(www), VERSIONS[v]!)
            for (const coding of ['identity', 'br']) {
              // Every ETag a browser got for an earlier version gets the new page, not a 304.
              for (const old of held.filter((h) => h.coding === coding)) {
                const answer = await get(url, { 'accept-encoding': coding, 'if-none-match': old.etag })
                expect(answer, `version ${v + 1}, ${coding}, holding ${old.etag}`).toMatchObject({
                  status: 200,
                  page: VERSIONS[v],
                })
              }
              const fresh = await get(url, { 'accept-encoding': coding })
              expect(fresh.page).toBe(VERSIONS[v])
              held.push({ coding, etag: fresh.etag! })
            }
            // The original and its variants keep one mtime on the target.
            const times = await Promise.all(
              ['index.html', 'index.html.br', 'index.html.gz'].map((k) => stat(join(www, k))),
            )
            expect(new Set(times.map((t) => t.mtimeMs)).size).toBe(1)
          }
          expect(new Set(held.map((h) => h.etag)).size).toBe(held.length)
        } finally {
          await server.stop()
        }
        // The deployed manifest records the retimed mtime: the handler's ETag is the content hash.
        const deployed = await readManifest(www)
        const res = await createPreencodeHandler(www)(
          new Request('http://site.test/index.html', { headers: { 'accept-encoding': 'br' } }),
        )
        const br = deployed.files[0]!.variants.find((v) => v.encoding === 'br')!
        expect(res!.headers.get('etag')).toBe(`"${br.sha256.slice(0, 32)}"`)
      } finally {
        await tmp.remove()
      }
    },
  )
})
