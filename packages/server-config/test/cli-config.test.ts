// `preencode config` (packages/cli/src/commands/config.ts) run as the real binary: it prints
// exactly what the generators return, writes --out, and rejects flags of another server.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Manifest, readManifest } from '@preencode/core'
import {
  apacheConfig,
  caddyConfig,
  cloudflareWorkerFiles,
  nginxConfig,
  nginxIncludeFiles,
} from '@preencode/server-config'
import { REPO_ROOT, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from './fixture.ts'

const BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js')
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'config', ...args], { encoding: 'utf8' })

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest
let root: string

beforeAll(async () => {
  dir = await tempDir('cli-config')
  root = join(dir.path, 'site')
  manifest = await buildFixtureSite(root)
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
    expect(run('nginx', dir.path).stderr).toMatch(/No manifest/)
  })
})
