// Issue 30.7: the `.assetsignore` that `config cloudflare` writes keeps every dotfile and
// dot-folder but `/.well-known/` out of `wrangler deploy`. Checked with wrangler itself (the e2e
// package's, offline): `wrangler deploy --dry-run` builds the asset list as a real deploy does and,
// with WRANGLER_LOG=debug, prints each file it ignores.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { MANIFEST_FILENAME, type Manifest } from '@preencode/core'
import { cloudflareWorkerFiles } from '@preencode/server-config'
import { REPO_ROOT, runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixtureSite } from '../fixture.ts'

const WRANGLER = join(REPO_ROOT, 'e2e/node_modules/wrangler/bin/wrangler.js')
const DOTFILES = ['.env', 'docs/.secret.json', '.git/config', '.well-known/.hidden', 'a/.well-known/x.txt']
const PUBLIC = ['.well-known/security.txt', '.well-known/acme-challenge/token', 'index.html']

let dir: Awaited<ReturnType<typeof tempDir>>
let manifest: Manifest
beforeAll(async () => {
  dir = await tempDir('cloudflare-assetsignore')
  manifest = await buildFixtureSite(join(dir.path, 'site'))
  for (const path of [...DOTFILES, ...PUBLIC.filter((p) => p !== 'index.html')]) {
    await mkdir(dirname(join(dir.path, 'site', path)), { recursive: true })
    await writeFile(join(dir.path, 'site', path), `${path}\n`)
  }
})
afterAll(() => dir.remove())

describe.skipIf(!existsSync(WRANGLER))('.assetsignore (wrangler deploy --dry-run)', () => {
  it('uploads no dotfile and no file of a dot-folder; /.well-known/ goes', async () => {
    const listed = { ...manifest, files: [...manifest.files, ...DOTFILES.map((path) => fileOf(manifest, path))] }
    const { files, siteFiles } = cloudflareWorkerFiles(listed, { root: '../site' })
    const worker = join(dir.path, 'worker')
    await mkdir(worker)
    for (const [name, text] of Object.entries(files)) await writeFile(join(worker, name), text)
    for (const [name, text] of Object.entries(siteFiles)) await writeFile(join(dir.path, 'site', name), text)
    const home = join(dir.path, 'home')
    const run = await runCollected(process.execPath, [WRANGLER, 'deploy', '--dry-run'], {
      cwd: worker,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        CI: '1',
        WRANGLER_LOG: 'debug',
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_API_TOKEN: '',
      },
    })
    const output = run.stdout + run.stderr
    expect(output, output).toMatch(/Read \d+ files from the assets directory/)
    const ignored = new Set([...output.matchAll(/^Ignoring asset: (.+)$/gm)].map((m) => m[1]!.trim()))
    for (const path of [...DOTFILES, MANIFEST_FILENAME]) expect(ignored.has(path), path).toBe(true)
    for (const path of PUBLIC) expect(ignored.has(path), path).toBe(false)
    // Their names stay out of the Worker's data too.
    for (const path of DOTFILES) expect(files['preencode-site.js']).not.toContain(JSON.stringify(path))
  })
})

function fileOf(manifest: Manifest, path: string): Manifest['files'][number] {
  const base = manifest.files.find((f) => f.variants.length === 0) ?? manifest.files[0]!
  return { ...base, path, variants: [], deltas: undefined }
}
