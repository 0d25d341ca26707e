// `preencode config` (packages/cli/src/commands/config.ts) run as the real binary: it prints
// exactly what the generators return, writes --out, takes each server's own flags (Varnish's
// --backend) and rejects flags of another server, naming them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compress, type Manifest, readManifest } from '@preencode/core'
import {
  apacheConfig,
  caddyConfig,
  cloudflareWorkerFiles,
  nginxConfig,
  nginxIncludeFiles,
  varnishConfig,
} from '@preencode/server-config'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, cli } from '../lifecycle-helpers.js'

const run = (...args: string[]) => cli(['config', ...args], dir.path)

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest
let root: string

/** A small site compressed by the real engine: pages, a hashed asset, a stylesheet. */
async function compressedSite(at: string): Promise<Manifest> {
  await mkdir(join(at, 'assets'), { recursive: true })
  await writeFile(join(at, 'index.html'), `<!doctype html>${'<p>a page that compresses well</p>\n'.repeat(100)}`)
  await writeFile(join(at, 'about.html'), `<!doctype html>${'<p>about this site, at length</p>\n'.repeat(80)}`)
  await writeFile(join(at, 'assets', 'app-3f2a9c1b.js'), `export const a = ${JSON.stringify('x'.repeat(4000))}\n`)
  await writeFile(join(at, 'assets', 'style.css'), `${'body { margin: 0; padding: 0 }\n'.repeat(60)}`)
  await compress(at, { cache: false })
  return readManifest(at)
}

beforeAll(async () => {
  dir = await tempDir('cli-config')
  root = join(dir.path, 'site')
  manifest = await compressedSite(root)
})
afterAll(() => dir.remove())

describe.skipIf(!existsSync(BIN))('preencode config', () => {
  it('prints the generated configs', () => {
    expect(run('nginx', root, '--flavor', 'modules', '--root', '/srv/site').stdout).toBe(
      nginxConfig(manifest, { flavor: 'modules', root: '/srv/site' }),
    )
    expect(run('apache', root).stdout).toBe(apacheConfig(manifest))
    expect(run('apache', root, '--form', 'vhost', '--root', '/srv/site').stdout).toBe(
      apacheConfig(manifest, { form: 'vhost', root: '/srv/site' }),
    )
    // The registry's needsRoot: the vhost form names the folder (default: <dir>), .htaccess none.
    expect(run('apache', root, '--form', 'vhost').stdout).toBe(apacheConfig(manifest, { form: 'vhost', root }))
    expect(run('caddy', root).stdout).toBe(caddyConfig(manifest, { root }))
    expect(run('cloudfront', root).stdout).toMatch(/function handler\(event\)/)
  })

  it('writes --out', () => {
    const out = join(dir.path, 'out', 'site.conf')
    const result = run('nginx', root, '--out', out, '--listen', '8080')
    expect(result.status).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(nginxConfig(manifest, { root, listen: '8080' }))
  })

  it('--form include: nginx writes its two files into the --out folder, Caddy its handle block', () => {
    const out = join(dir.path, 'nginx-include')
    const result = run('nginx', root, '--form', 'include', '--out', out, '--root', '/srv/site')
    expect(result.status, result.stderr).toBe(0)
    const files = nginxIncludeFiles(manifest, { root: '/srv/site' })
    expect(readFileSync(join(out, 'preencode-http.conf'), 'utf8')).toBe(files.http.text)
    expect(readFileSync(join(out, 'preencode-server.conf'), 'utf8')).toBe(files.server.text)
    const noOut = run('nginx', root, '--form', 'include')
    expect(noOut.status).toBe(1)
    expect(noOut.stderr).toMatch(
      /nginx --form include writes 2 files \(preencode-http\.conf, preencode-server\.conf\): name the folder with --out <folder>/,
    )
    expect(run('caddy', root, '--form', 'include').stdout).toBe(caddyConfig(manifest, { root, form: 'include' }))
    expect(run('nginx', root, '--form', 'inline').stderr).toMatch(/--form is "inline"/)
  })

  it('cloudflare writes the Worker folder, and .assetsignore into the site keeping the lines already there', async () => {
    const out = join(dir.path, 'worker')
    writeFileSync(join(root, '.assetsignore'), '/drafts\n')
    const result = run('cloudflare', root, '--out', out, '--name', 'my-site')
    expect(result.status, result.stderr).toBe(0)
    // What the CLI generated from: the manifest as it reconciled it with the disk.
    const expected = cloudflareWorkerFiles(await readManifest(root), { root: '../site', name: 'my-site' })
    expect(readdirSync(out).sort()).toEqual(Object.keys(expected.files).sort())
    for (const [name, text] of Object.entries(expected.files))
      expect(readFileSync(join(out, name), 'utf8'), name).toBe(text)
    expect(readFileSync(join(root, '.assetsignore'), 'utf8')).toBe(
      '/drafts\n/.preencode-manifest.json\n/.preencode-deploy-state.json\n.*\n!/.well-known/\n',
    )
    const again = run('cloudflare', root, '--out', out, '--name', 'my-site')
    expect(again.status).toBe(0)
    expect(readFileSync(join(root, '.assetsignore'), 'utf8')).toBe(
      '/drafts\n/.preencode-manifest.json\n/.preencode-deploy-state.json\n.*\n!/.well-known/\n',
    )
    const noOut = run('cloudflare', root)
    expect(noOut.status).toBe(1)
    expect(noOut.stderr).toMatch(/writes several files: give --out <folder>/)
    expect(run('cloudflare', root, '--out', out, '--plan', 'pro').stderr).toMatch(
      /--plan is "pro"; accepted: free, paid/,
    )
  })

  it('fails clearly on a wrong server or a flag of another server', () => {
    const unknown = run('iis', root)
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/Unknown server `iis`/)
    expect(run('caddy', root, '--flavor', 'stock').stderr).toMatch(/--flavor applies to nginx only/)
    // A server's own option at fault is named by the flag it was given as.
    expect(run('cloudfront', root, '--index-file', 'a/b.html').stderr).toMatch(/--index-file is "a\/b\.html"/)
    expect(run('nginx', dir.path).stderr).toMatch(/No manifest/)
  })

  it('varnish prints the VCL for --backend', () => {
    const result = run('varnish', root, '--backend', '127.0.0.1:8080')
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toBe(varnishConfig(manifest, { backend: '127.0.0.1:8080' }))
  })

  it('varnish fails with one clear line without --backend or with a bad one', () => {
    for (const args of [[], ['--backend', 'localhost']]) {
      const result = run('varnish', root, ...args)
      expect(result.status).not.toBe(0)
      expect(result.stderr).toMatch(/--backend is .*host:port/)
      expect(result.stdout).toBe('')
    }
    expect(run('varnish', root, '--backend', 'x:1', '--root', '/srv').stderr).toMatch(/--root applies to/)
  })
})
