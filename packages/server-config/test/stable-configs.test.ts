// Configs you commit once: two builds of the playground with different content (other bytes,
// other hashed names, one more file) give byte-identical configs for every server and flavour.
import { join } from 'node:path'
import { type Manifest, readManifest } from '@preencode/core'
import { cloudflareWorkerFiles, SERVER_REGISTRY, type ServerConfigTarget, serverConfig } from '@preencode/server-config'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { build, type Plugin } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const PLAYGROUND = join(REPO_ROOT, 'playground')

/** Changes what the build writes: a comment in every chunk and page, and an extra asset. */
function differentContent(tag: string): Plugin {
  return {
    name: 'test:different-content',
    renderChunk: (code) => `${code}\n/* ${tag} */\n`,
    transformIndexHtml: (html) => html.replace('</body>', `<!-- ${tag} -->\n</body>`),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: `notes-${tag}.txt`, source: `${tag} `.repeat(800) })
    },
  }
}

async function buildPlayground(outDir: string, tag: string): Promise<Manifest> {
  await build({
    root: PLAYGROUND,
    configFile: join(PLAYGROUND, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
    plugins: [differentContent(tag)],
  })
  return readManifest(outDir)
}

const TARGETS: ServerConfigTarget[] = [
  { server: 'nginx', root: '/srv/site', flavor: 'stock' },
  { server: 'nginx', root: '/srv/site', flavor: 'modules' },
  { server: 'apache' },
  { server: 'apache', form: 'vhost', root: '/srv/site' },
  { server: 'caddy', root: '/srv/site' },
  { server: 'cloudfront' },
  { server: 'varnish', backend: '127.0.0.1:8080' },
]

let dir: { path: string; remove: () => Promise<void> }
let first: Manifest
let second: Manifest

beforeAll(async () => {
  dir = await tempDir('stable-configs')
  first = await buildPlayground(join(dir.path, 'first'), 'first-build')
  second = await buildPlayground(join(dir.path, 'second'), 'second-build-with-other-bytes')
}, 300_000)
afterAll(() => dir.remove())

describe('two builds with different content', () => {
  it('really differ: other hashes, other names, other files', () => {
    const hashes = (m: Manifest): string => m.files.map((f) => `${f.path}:${f.sha256}`).join('\n')
    expect(hashes(first)).not.toBe(hashes(second))
    expect(first.files.map((f) => f.path)).not.toEqual(second.files.map((f) => f.path))
  })

  it.each(TARGETS.map((t) => [JSON.stringify(t), t] as const))('give byte-identical configs: %s', (_, target) => {
    const a = serverConfig(first, target)
    expect(a.length).toBeGreaterThan(500)
    expect(serverConfig(second, target)).toBe(a)
  })

  it('cloudflare: the Worker, its runtime and wrangler.jsonc are identical; only the site data changes', () => {
    const a = cloudflareWorkerFiles(first).files
    const b = cloudflareWorkerFiles(second).files
    for (const name of ['worker.js', 'preencode-runtime.js', 'wrangler.jsonc']) expect(b[name], name).toBe(a[name])
    expect(b['preencode-site.js']).not.toBe(a['preencode-site.js'])
  })

  it('covers every server of the registry', () => {
    expect(new Set([...TARGETS.map((t) => t.server), 'cloudflare'])).toEqual(new Set(Object.keys(SERVER_REGISTRY)))
  })
})
