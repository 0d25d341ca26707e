// Issue 30.7: dotfiles and dot-folders (`.env`, `docs/.secret.json`, `.git/`) do not leave the
// machine by default, whatever the target (folder, rsync, S3 on MinIO); `/.well-known/` and
// `.htaccess` do. `includeDotfiles` (`--include-dotfiles`) uploads them; the dry-run plan says in
// one line how many stayed.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { compress } from '@preencode/core'
import { type DeployTarget, deploy, localTarget, rsyncTarget } from '@preencode/deploy'
import { s3Target } from '@preencode/deploy/s3'
import { hasTool, runCollected, tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isLocalOnly } from '../../src/plan/dotfiles.js'
import { createBucket, credentials, listKeys, listTree, type Minio, startMinio, writeSite } from '../helpers.js'

const BIN = join(import.meta.dirname, '../../../cli/dist/bin.js')
const page = `<!doctype html><html><body>${'<p>hello</p>'.repeat(200)}</body></html>`
const SITE = {
  'index.html': page,
  '.env': `SECRET_TOKEN=${'s'.repeat(40)}\n`,
  'docs/.secret.json': JSON.stringify({ token: 'x'.repeat(2000) }),
  '.git/config': '[core]\n\trepositoryformatversion = 0\n',
  '.well-known/security.txt': 'Contact: mailto:security@example.com\n',
  '.well-known/.hidden': 'not public\n',
  '.htaccess': `# rules\n${'RewriteRule ^x$ y [L]\n'.repeat(100)}`,
}
const LEFT_OUT = ['.env', '.git/config', '.well-known/.hidden', 'docs/.secret.json']
/** Any key of a file left out: the file, its variants, its deltas. */
const secret = (key: string) => LEFT_OUT.some((path) => key === path || key.startsWith(`${path}.`))

let site: Awaited<ReturnType<typeof tempDir>>
let minio: Minio
beforeAll(async () => {
  site = await tempDir('dotfiles-site')
  await writeSite(site.path, SITE)
  await compress(site.path, { cache: false, threshold: 0 })
  minio = await startMinio()
  await createBucket(minio, 'dots')
})
afterAll(async () => {
  await minio?.remove()
  await site?.remove()
})

describe('which paths stay on this machine', () => {
  it.each([
    ['.env', true],
    ['docs/.secret.json', true],
    ['.git/config', true],
    ['a/.well-known/x', true],
    ['.well-known/.hidden', true],
    ['.well-known', true],
    ['.htpasswd', true],
    ['.git/.htaccess', true],
    ['.well-known/security.txt', false],
    ['.well-known/acme-challenge/token', false],
    ['.htaccess', false],
    ['docs/.htaccess', false],
    ['index.html', false],
    ['a.b/c.d', false],
    ['p.html.dict/q1Zk/x.html.dcb', false],
  ])('%s: %s', (path, local) => {
    expect(isLocalOnly(path)).toBe(local)
  })
})

const targets: [string, () => Promise<{ target: () => DeployTarget; keys: () => Promise<string[]> }>][] = [
  [
    'folder',
    async () => {
      const dir = await tempDir('dotfiles-folder')
      return { target: () => localTarget(dir.path), keys: () => listTree(dir.path) }
    },
  ],
  [
    'rsync',
    async () => {
      const dir = await tempDir('dotfiles-rsync')
      return { target: () => rsyncTarget(dir.path), keys: () => listTree(dir.path) }
    },
  ],
  [
    'S3',
    async () => {
      const prefix = `www${Math.random().toString(36).slice(2, 8)}/`
      return {
        target: () => s3Target({ bucket: 'dots', prefix, endpoint: minio.endpoint, credentials }),
        keys: () => listKeys(minio, 'dots', prefix),
      }
    },
  ],
]

describe.each(targets)('%s target', (name, setup) => {
  it('leaves dotfiles out by default; includeDotfiles uploads them', async ({ skip }) => {
    skip(name === 'rsync' && !hasTool('rsync'), 'missing on this machine: rsync')
    const { target, keys } = await setup()
    const { summary, plan } = await deploy({ dir: site.path, target: target() })
    expect(plan.leftOut).toEqual(LEFT_OUT)
    expect(summary.leftOut).toBe(4)
    const stored = await keys()
    expect(stored.filter(secret)).toEqual([])
    expect(stored).toEqual(expect.arrayContaining(['index.html', '.htaccess', '.well-known/security.txt']))
    const opted = await deploy({ dir: site.path, target: target(), includeDotfiles: true })
    expect(opted.plan.leftOut).toEqual([])
    expect((await keys()).filter(secret)).toEqual(expect.arrayContaining(LEFT_OUT))
  })
})

describe.skipIf(!existsSync(BIN))('preencode deploy (built CLI)', () => {
  it('the dry-run plan says in one line how many dotfiles stay; --include-dotfiles uploads them', async () => {
    const out = await tempDir('dotfiles-cli')
    try {
      const www = join(out.path, 'www')
      const env = { ...process.env, CI: '1' }
      const dry = await runCollected(process.execPath, [BIN, 'deploy', site.path, '--to', www, '--dry-run'], { env })
      expect(dry.code, dry.stderr).toBe(0)
      expect(dry.stdout.split('\n').filter((line) => /left out/.test(line))).toEqual([
        '  left out 4 dotfiles (.env, .git/config, .well-known/.hidden and 1 more); --include-dotfiles uploads them',
        expect.stringMatching(/^Dry run: .*, left out 4 dotfiles; /),
      ])
      expect(dry.stdout).not.toMatch(/upload \.env/)
      const real = await runCollected(process.execPath, [BIN, 'deploy', site.path, '--to', www, '--include-dotfiles'], {
        env,
      })
      expect(real.code, real.stderr).toBe(0)
      expect(real.stdout).not.toMatch(/left out/)
      expect(await listTree(www)).toEqual(expect.arrayContaining(['.env', 'docs/.secret.json']))
    } finally {
      await out.remove()
    }
  })
})
