// RFC 9842 on every real server, over raw HTTP: a valid Available-Dictionary gets the delta with
// exact headers (original Content-Type, dcb/dcz, Content-Length, own ETag, Vary: Accept-Encoding,
// Available-Dictionary) that decodes to the new file — also for dictionary hashes whose base64
// starts with `/` or holds `//` (nested folders on disk); and every hostile or unmatched value
// gets exactly the answer of the same request without the header.
import { createHash } from 'node:crypto'
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { expect, test } from '@playwright/test'
import {
  compress as compressDirectory,
  decodeWithDictionary,
  type Manifest,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { verifySite } from '@preencode/server-config'
import { freePort, tempDir } from '@preencode/test-utils'
import { DELTA_RETENTION_SECONDS, dictionaryLifetime } from '../../packages/core/src/http/cache-policy.js'
import { type ServerKind, startServerOnPort } from '../harness/servers.ts'

interface Res {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function get(url: string, headers: Record<string, string | string[]>, method = 'GET'): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** A request with bytes Node's client refuses to send (a NUL in a header): status line only. */
function rawStatus(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let data = ''
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1')
    })
    socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''))
    socket.on('error', reject)
  })
}

const b64 = (data: Buffer): string => createHash('sha256').update(data).digest('base64')
const AE = 'gzip, deflate, br, zstd, dcb, dcz'
const BASE = Buffer.from(
  Array.from(
    { length: 2500 },
    (_, i) => `export function f${i}(x) { return x * ${i % 17} + "${(i * 7919) % 1000}" }\n`,
  ).join(''),
)

/** A version of BASE whose dictionary id satisfies `test` (found by appending a counter). */
function versionWhoseId(test: (id: string) => boolean, label: string): Buffer {
  for (let n = 0; ; n++) {
    const bytes = Buffer.concat([BASE, Buffer.from(`// ${label} ${n}\n`)])
    if (test(b64(bytes))) return bytes
  }
}

const V_SLASH = versionWhoseId((id) => id.startsWith('/'), 'leading slash')
const V_DOUBLE = versionWhoseId((id) => id.includes('//'), 'double slash')
const V_NEW = Buffer.concat([BASE.subarray(0, 40_000), Buffer.from('export const edited = 2\n'), BASE.subarray(40_000)])
const NEW_PATH = 'assets/app-Zz34Yy56.js'

async function buildSite(root: string, cache: string): Promise<Manifest> {
  let manifest: Manifest | undefined
  for (const [name, bytes] of [
    ['app-Ab12Cd34.js', V_SLASH],
    ['app-Cd34Ef56.js', V_DOUBLE],
    ['app-Zz34Yy56.js', V_NEW],
  ] as const) {
    await rm(join(root, 'assets'), { recursive: true, force: true })
    for (const [path, data] of Object.entries({
      [`assets/${name}`]: bytes,
      'index.html': Buffer.from(
        `<!doctype html><script type="module" src="/assets/${name}"></script>`.padEnd(2000, ' '),
      ),
    })) {
      await mkdir(dirname(join(root, path)), { recursive: true })
      await writeFile(join(root, path), data)
    }
    const { manifest: compressed } = await compressDirectory(root, { cache })
    manifest = (await writeDeltas(root, compressed, resolveDeltaOptions(), { cacheDir: cache })).manifest
  }
  return manifest!
}

const KINDS: ServerKind[] = ['node', 'nginx-stock', 'nginx-modules', 'apache-htaccess', 'apache-vhost']

test.describe('dictionary responses on every server', () => {
  let work: Awaited<ReturnType<typeof tempDir>>
  let site: string
  let manifest: Manifest
  test.beforeAll(async () => {
    work = await tempDir('e2e-dict-headers')
    await chmod(work.path, 0o755)
    site = join(work.path, 'site')
    manifest = await buildSite(site, join(work.path, 'cache'))
  })
  test.afterAll(async () => {
    await work.remove()
  })

  for (const kind of KINDS) {
    test(kind, async () => {
      const port = await freePort()
      const url = `http://127.0.0.1:${port}/${NEW_PATH}`
      const running = await startServerOnPort(kind, site, port, join(work.path, kind), manifest)
      try {
        const entry = manifest.files.find((f) => f.path === NEW_PATH)!
        expect(new Set(entry.deltas!.map((d) => d.dictionary))).toEqual(new Set([b64(V_SLASH), b64(V_DOUBLE)]))
        const plain = await get(url, { 'accept-encoding': AE })
        expect(plain.headers['content-encoding']).toBe('br')
        expect(plain.headers['use-as-dictionary']).toBe('match="app-*.js"')
        // Announced as a dictionary: usable as long as deltas against it are kept (RFC 9842 §2.2.2).
        expect(dictionaryLifetime(String(plain.headers['cache-control']))).toBeGreaterThanOrEqual(
          DELTA_RETENTION_SECONDS,
        )
        for (const dictionary of [V_SLASH, V_DOUBLE]) {
          for (const accept of [AE, 'br, dcb', 'br, dcz']) {
            const res = await get(url, { 'accept-encoding': accept, 'available-dictionary': `:${b64(dictionary)}:` })
            const encoding = res.headers['content-encoding'] as string
            expect(
              accept === AE ? ['dcb', 'dcz'] : [accept.slice(4)],
              `${kind} ${accept} ${b64(dictionary)}`,
            ).toContain(encoding)
            expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
            // A list: Apache writes it without the space after the comma.
            expect(
              String(res.headers.vary)
                .split(',')
                .map((v) => v.trim()),
            ).toEqual(['Accept-Encoding', 'Available-Dictionary'])
            expect(res.headers['use-as-dictionary']).toBe('match="app-*.js"')
            expect(res.headers['cache-control']).toBe(entry.cacheControl)
            expect(dictionaryLifetime(String(res.headers['cache-control']))).toBeGreaterThanOrEqual(
              DELTA_RETENTION_SECONDS,
            )
            expect(Number(res.headers['content-length'])).toBe(res.body.byteLength)
            expect(res.headers.etag).toBeDefined()
            expect(res.headers.etag).not.toBe(plain.headers.etag)
            expect((await decodeWithDictionary(encoding as 'dcb' | 'dcz', res.body, dictionary)).equals(V_NEW)).toBe(
              true,
            )
            const head = await get(
              url,
              { 'accept-encoding': accept, 'available-dictionary': `:${b64(dictionary)}:` },
              'HEAD',
            )
            expect(head.headers['content-encoding']).toBe(encoding)
            expect(head.headers['content-length']).toBe(res.headers['content-length'])
          }
        }

        const valid = `:${b64(V_DOUBLE)}:`
        const hostile: [string, Record<string, string | string[]>][] = [
          ['no dcb/dcz in Accept-Encoding', { 'accept-encoding': 'gzip, br, zstd', 'available-dictionary': valid }],
          ['dcb;q=0, dcz;q=0', { 'accept-encoding': 'br, dcb;q=0, dcz;q=0', 'available-dictionary': valid }],
          [
            'dcb and dcz each named twice, once with q=0',
            { 'accept-encoding': 'br, dcb, dcz;q=0, dcb;q=0, dcz', 'available-dictionary': valid },
          ],
          ['dcbx, xdcz', { 'accept-encoding': 'br, dcbx, xdcz', 'available-dictionary': valid }],
          ['foreign hash', { 'accept-encoding': AE, 'available-dictionary': `:${b64(Buffer.from('foreign'))}:` }],
          ['the new version itself', { 'accept-encoding': AE, 'available-dictionary': `:${b64(V_NEW)}:` }],
          ['no colons', { 'accept-encoding': AE, 'available-dictionary': b64(V_DOUBLE) }],
          ['list of two', { 'accept-encoding': AE, 'available-dictionary': `${valid}, ${valid}` }],
          ['parameter', { 'accept-encoding': AE, 'available-dictionary': `${valid};x=1` }],
          [
            '31 bytes',
            {
              'accept-encoding': AE,
              'available-dictionary': `:${createHash('sha256').update('x').digest().subarray(0, 31).toString('base64')}:`,
            },
          ],
          [
            'SHA-512',
            { 'accept-encoding': AE, 'available-dictionary': `:${createHash('sha512').update('x').digest('base64')}:` },
          ],
          [
            'dot-dot',
            { 'accept-encoding': AE, 'available-dictionary': ':../../../../../../../etc/passwd/../../../../aaaa=:' },
          ],
          [
            'percent-encoded slashes',
            {
              'accept-encoding': AE,
              'available-dictionary': ':..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd%2f..%2faa=:',
            },
          ],
          [
            'base64url',
            {
              'accept-encoding': AE,
              'available-dictionary': `:${createHash('sha256').update(V_DOUBLE).digest('base64url')}=:`,
            },
          ],
          ['huge', { 'accept-encoding': AE, 'available-dictionary': `:${'A'.repeat(6000)}=:` }],
        ]
        const comparable = (res: Res): unknown => ({
          status: res.status,
          encoding: res.headers['content-encoding'],
          type: res.headers['content-type'],
          length: res.headers['content-length'],
          etag: res.headers.etag,
          vary: res.headers.vary,
          body: createHash('sha256').update(res.body).digest('hex'),
        })
        for (const [label, headers] of hostile) {
          for (const path of [`/${NEW_PATH}`, '/', '/index.html', '/assets/app-Ab12Cd34.js']) {
            const target = `http://127.0.0.1:${port}${path}`
            const { 'available-dictionary': _, ...without } = headers
            const [got, expected] = [await get(target, headers), await get(target, without)]
            expect(comparable(got), `${kind}: ${label} ${path}`).toEqual(comparable(expected))
          }
        }
        // `preencode verify`'s checks, delta probes included, pass on this server.
        const verified = await verifySite(`http://127.0.0.1:${port}/`, manifest, site)
        expect(verified.checks.filter((c) => c.acceptEncoding === 'dcb' || c.acceptEncoding === 'dcz')).toHaveLength(
          entry.deltas!.length,
        )
        expect(verified.failures.map((f) => `${f.url} ${f.acceptEncoding}: ${f.problems.join('; ')}`)).toEqual([])
        // A NUL in the header: the server refuses the request or ignores the header, never a delta.
        const nul = await rawStatus(
          port,
          `GET /${NEW_PATH} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: dcb\r\nAvailable-Dictionary: :${b64(V_DOUBLE).slice(0, 42)}\0=:\r\nConnection: close\r\n\r\n`,
        )
        expect(nul).toMatch(/^HTTP\/1\.1 (200|400)/)
        // The delta files are not a way around the rules: asked for by name, a delta is what it is.
        const direct = await get(`http://127.0.0.1:${port}/${entry.deltas![0]!.path.replace(/\+/g, '%2B')}`, {
          'accept-encoding': 'identity',
        })
        expect([200, 404]).toContain(direct.status)
      } catch (error) {
        await test.info().attach('server', { body: running.logs() })
        throw error
      } finally {
        await running.stop()
      }
    })
  }
})
