// One deploy suite run by every target that ends in a folder: the local target, rsync to a local
// path and rsync to a daemon on loopback. The S3 target has its own file (s3.test.ts).
import { chmod, lstat, readdir, readFile, readlink, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MANIFEST_FILENAME, readManifest } from '@preencode/core'
import { DEPLOY_STATE_FILENAME, type DeployTarget, deploy, localTarget, rsyncTarget } from '@preencode/deploy'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteObjects } from '../../src/plan/plan.js'
import {
  fixtureFiles,
  listTree,
  makeSite,
  mtimeOf,
  recompress,
  removeFile,
  startRsyncDaemon,
  writeSite,
} from '../helpers.js'

async function assertTreeMatches(siteRoot: string, deployed: string): Promise<void> {
  const manifest = await readManifest(siteRoot)
  const objects = siteObjects(manifest)
  const ours = new Set([DEPLOY_STATE_FILENAME, MANIFEST_FILENAME])
  expect((await listTree(deployed)).filter((k) => !ours.has(k))).toEqual(objects.map((o) => o.key))
  // The manifest of what was deployed, for `preencode serve` and the handler (issue 36.3).
  expect((await readManifest(deployed)).files.map((f) => f.path)).toEqual(manifest.files.map((f) => f.path))
  for (const object of objects) {
    expect(
      (await readFile(join(deployed, object.key))).equals(await readFile(join(siteRoot, object.key))),
      object.key,
    ).toBe(true)
  }
  // Variants carry their original's mtime on the far side too: the source's, or for a file
  // changed within the second the target's copy has, one second later (issue 36.2, retime.ts),
  // as the manifest left there records.
  const held = new Map((await readManifest(deployed)).files.map((f) => [f.path, f.mtimeMs]))
  for (const file of manifest.files) {
    const original = await mtimeOf(join(deployed, file.path))
    const mtimeMs = held.get(file.path)!
    expect(original).toBe(Math.floor(mtimeMs / 1000))
    expect(mtimeMs).toBeGreaterThanOrEqual(Math.floor(file.mtimeMs))
    for (const variant of file.variants)
      expect(await mtimeOf(join(deployed, variant.path)), variant.path).toBe(original)
  }
}

function folderSuite(
  name: string,
  setup: () => Promise<{ dir: string; target: () => DeployTarget; cleanup: () => Promise<void> }>,
): void {
  describe(name, () => {
    let site: Awaited<ReturnType<typeof makeSite>>
    let env: Awaited<ReturnType<typeof setup>>
    beforeAll(async () => {
      site = await makeSite(1)
      env = await setup()
    })
    afterAll(async () => {
      await env?.cleanup()
      await site?.remove()
    })

    it('deploys the tree with variant mtimes equal to the originals', async () => {
      const { summary } = await deploy({ dir: site.root, target: env.target(), delete: true })
      expect(summary.uploaded).toBe(siteObjects(site.manifest).length)
      await assertTreeMatches(site.root, env.dir)
    })

    it('a second run transfers nothing', async () => {
      const { summary } = await deploy({ dir: site.root, target: env.target(), delete: true })
      expect(summary.uploaded).toBe(0)
      expect(summary.deleted).toBe(0)
      expect(summary.skipped).toBe(siteObjects(site.manifest).length)
    })

    it('without the deploy state, a rerun still transfers nothing (rsync: its itemized changes are empty)', async () => {
      await rm(join(env.dir, DEPLOY_STATE_FILENAME))
      const { summary, plan } = await deploy({ dir: site.root, target: env.target(), delete: true })
      expect(summary.uploaded).toBe(0)
      expect(summary.skipped).toBe(siteObjects(site.manifest).length)
      expect(plan.deletions).toEqual([])
      // The state is written again for the next run.
      expect((await listTree(env.dir)).includes(DEPLOY_STATE_FILENAME)).toBe(true)
    })

    it('one changed file: its outputs and the HTML naming it are transferred; the old one deleted last', async () => {
      await removeFile(site.root, 'assets/app-Ab1Cd34E.js')
      const v2 = fixtureFiles(2)
      await writeSite(site.root, {
        'assets/app-Ab2Cd34E.js': v2['assets/app-Ab2Cd34E.js']!,
        'index.html': v2['index.html']!,
        'about/index.html': v2['about/index.html']!,
      })
      await recompress(site.root)
      const uploaded: string[] = []
      const { summary, plan } = await deploy({
        dir: site.root,
        target: env.target(),
        delete: true,
        onEvent: (e) => {
          if (e.type === 'upload') uploaded.push(e.key)
          if (e.type === 'delete') uploaded.push('<delete>')
        },
      })
      expect(
        uploaded.every((k) => k === '<delete>' || k.startsWith('assets/app-Ab2Cd34E.js') || k.includes('index.html')),
      ).toBe(true)
      expect(uploaded).toContain('assets/app-Ab2Cd34E.js')
      expect(uploaded).toContain('index.html')
      // HTML after the asset, deletions last.
      expect(uploaded.indexOf('index.html')).toBeGreaterThan(uploaded.indexOf('assets/app-Ab2Cd34E.js'))
      expect(uploaded.at(-1)).toBe('<delete>')
      expect(plan.deletions).toContain('assets/app-Ab1Cd34E.js')
      expect(summary.uploaded).toBe(12)
      await assertTreeMatches(site.root, env.dir)
    })
  })
}

folderSuite('localTarget', async () => {
  const dir = await tempDir('local-target')
  return { dir: dir.path, target: () => localTarget(dir.path), cleanup: dir.remove }
})

folderSuite('rsyncTarget to a local path', async () => {
  const dir = await tempDir('rsync-local')
  return { dir: dir.path, target: () => rsyncTarget(dir.path), cleanup: dir.remove }
})

folderSuite('rsyncTarget to an rsync daemon on loopback', async () => {
  const dir = await tempDir('rsync-daemon')
  const daemon = await startRsyncDaemon(dir.path)
  return {
    dir: dir.path,
    target: () => rsyncTarget(`${daemon.url}/`),
    cleanup: async () => {
      await daemon.stop()
      await dir.remove()
    },
  }
})

/**
 * A stand-in for ssh that runs the remote command on this machine the way sshd does: the words
 * after the host joined by spaces and run by a shell. rsync's own ssh transport and the release
 * swap (`ssh host sh -c '…'`) then go through exactly the quoting they get in production.
 */
async function fakeSsh(dir: string): Promise<string> {
  const path = join(dir, 'fake-ssh')
  await writeFile(
    path,
    [
      '#!/bin/sh',
      '# usage: fake-ssh [-l user] [options] host command...',
      'while [ $# -gt 0 ]; do case "$1" in -l|-p|-i|-o|-e) shift 2;; -*) shift;; *) break;; esac; done',
      'shift',
      'exec sh -c "$*"',
      '',
    ].join('\n'),
  )
  await chmod(path, 0o755)
  return path
}

folderSuite('rsyncTarget over ssh (user@host:path)', async () => {
  const dir = await tempDir('rsync-ssh')
  const tools = await tempDir('rsync-ssh-tools')
  const ssh = await fakeSsh(tools.path)
  return {
    dir: dir.path,
    target: () => rsyncTarget(`deployer@example.test:${dir.path}`, { ssh }),
    cleanup: async () => {
      await dir.remove()
      await tools.remove()
    },
  }
})

describe('rsyncTarget release mode', () => {
  let site: Awaited<ReturnType<typeof makeSite>>
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    site = await makeSite(1)
    dir = await tempDir('rsync-release')
  })
  afterAll(async () => {
    await dir?.remove()
    await site?.remove()
  })

  it('uploads into releases/<id>, swaps current atomically, hard-links unchanged files and keeps N releases', async () => {
    const first = await deploy({ dir: site.root, target: rsyncTarget(dir.path, { release: true, keepReleases: 2 }) })
    const current = join(dir.path, 'current')
    expect((await lstat(current)).isSymbolicLink()).toBe(true)
    expect(await readlink(current)).toBe(`releases/${first.summary.deployId}`)
    await assertTreeMatches(site.root, current)

    await writeSite(site.root, { 'robots.txt': 'User-agent: *\nDisallow: /private\n' })
    // A build that pins mtimes: the changed file is older than what the target holds, so the
    // deploy moves it past that (issue 36.2), and every later deploy must keep that mtime.
    const pinned = new Date(Date.now() - 3_600_000)
    await utimes(join(site.root, 'robots.txt'), pinned, pinned)
    await recompress(site.root)
    const second = await deploy({ dir: site.root, target: rsyncTarget(dir.path, { release: true, keepReleases: 2 }) })
    expect(second.summary.uploaded).toBe(1)
    expect(await readlink(current)).toBe(`releases/${second.summary.deployId}`)
    await assertTreeMatches(site.root, current)
    // Unchanged files are hard links into the previous release.
    const a = await stat(join(dir.path, 'releases', first.summary.deployId, 'index.html'))
    const b = await stat(join(dir.path, 'releases', second.summary.deployId, 'index.html'))
    expect(b.ino).toBe(a.ino)
    expect(await readdir(dir.path)).not.toContain('current.tmp')

    const third = await deploy({ dir: site.root, target: rsyncTarget(dir.path, { release: true, keepReleases: 2 }) })
    expect(third.summary.uploaded).toBe(0)
    const robots = async (id: string) => (await stat(join(dir.path, 'releases', id, 'robots.txt'))).mtimeMs
    expect(await robots(third.summary.deployId)).toBe(await robots(second.summary.deployId))
    expect(await robots(second.summary.deployId)).toBeGreaterThan(pinned.getTime() + 1000)
    expect((await readdir(join(dir.path, 'releases'))).sort()).toEqual(
      [second.summary.deployId, third.summary.deployId].sort(),
    )
    expect(await readlink(current)).toBe(`releases/${third.summary.deployId}`)
  })

  it('over ssh: the swap and pruning run remotely through sh -c', async () => {
    const remote = await tempDir('rsync-release-ssh')
    const tools = await tempDir('rsync-ssh-tools')
    try {
      const ssh = await fakeSsh(tools.path)
      const target = () => rsyncTarget(`deployer@example.test:${remote.path}`, { ssh, release: true, keepReleases: 1 })
      const first = await deploy({ dir: site.root, target: target() })
      expect(await readlink(join(remote.path, 'current'))).toBe(`releases/${first.summary.deployId}`)
      const second = await deploy({ dir: site.root, target: target() })
      expect(second.summary.uploaded).toBe(0)
      expect(await readlink(join(remote.path, 'current'))).toBe(`releases/${second.summary.deployId}`)
      expect(await readdir(join(remote.path, 'releases'))).toEqual([second.summary.deployId])
      await assertTreeMatches(site.root, join(remote.path, 'current'))
    } finally {
      await remote.remove()
      await tools.remove()
    }
  })

  it('refuses release mode for a daemon, and names the destination', () => {
    expect(() => rsyncTarget('rsync://127.0.0.1:873/site', { release: true })).toThrow(
      /rsync:\/\/127\.0\.0\.1:873\/site is an rsync daemon/,
    )
  })
})
