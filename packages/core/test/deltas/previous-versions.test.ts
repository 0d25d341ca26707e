// Previous versions from a deploy target's listing and deploy state (S3, rsync): generations by
// deploy, only keys still stored, only versioned assets, and no hostile key ever read.
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { deployedVersionSource, folderVersionSource } from '../../src/deltas/previous-versions.js'

describe('deployedVersionSource', () => {
  it('numbers generations by deploy, skips keys no longer stored, and reads only on demand', async () => {
    const reads: string[] = []
    const source = deployedVersionSource({
      description: 's3://site/www/',
      keys: new Set(['assets/app-Ab12Cd34.js', 'assets/app-Zz99Yy88.js', 'index.html']),
      deploys: [
        { keys: ['assets/app-Ab12Cd34.js', 'index.html', 'assets/app-Ab12Cd34.js.br'] },
        { keys: ['assets/app-Zz99Yy88.js', 'assets/app-Gone0000.js'] },
      ],
      read: async (key, generation) => {
        reads.push(`${generation}:${key}`)
        return Buffer.from(key)
      },
    })
    const versions = await source.list()
    expect(source.description).toBe('s3://site/www/ (deploy state)')
    expect(versions.map((v) => [v.path, v.generation])).toEqual([
      ['assets/app-Ab12Cd34.js', 0],
      ['assets/app-Zz99Yy88.js', 1],
    ])
    expect(reads).toEqual([])
    expect((await versions[1]!.read())?.toString()).toBe('assets/app-Zz99Yy88.js')
    expect(reads).toEqual(['1:assets/app-Zz99Yy88.js'])
  })

  it('without a deploy state, every versioned key listed is generation 0', async () => {
    const source = deployedVersionSource({
      description: 'rsync host:/srv/www',
      keys: new Set(['assets/app-Ab12Cd34.js', 'assets/app-Ab12Cd34.js.dict/x.js.dcb', 'robots.txt']),
      deploys: undefined,
      read: async () => undefined,
    })
    expect((await source.list()).map((v) => [v.path, v.generation])).toEqual([['assets/app-Ab12Cd34.js', 0]])
    expect(source.description).toBe('rsync host:/srv/www (listing)')
  })

  it('never reads a hostile key named by a deploy state', async () => {
    const hostile = [
      '../assets/app-Ab12Cd34.js',
      '/etc/app-Ab12Cd34.js',
      'assets//app-Ab12Cd34.js',
      'a\0/app-Ab12Cd34.js',
    ]
    const source = deployedVersionSource({
      description: 'rsync host:/srv/www (release mode)',
      keys: undefined,
      deploys: [{ keys: [...hostile, 42, null] }],
      read: async () => {
        throw new Error('read a hostile key')
      },
    })
    expect(await source.list()).toEqual([])
  })
})

describe('folderVersionSource', () => {
  it('reads no version through a link that leads out of the folder, listed or named by a manifest', async () => {
    const base = await mkdtemp(join(tmpdir(), 'preencode-versions-'))
    const site = join(base, 'site')
    const outside = join(base, 'outside')
    await mkdir(join(site, 'assets'), { recursive: true })
    await mkdir(join(outside, 'assets'), { recursive: true })
    await writeFile(join(outside, 'secret-Ab12Cd34.js'), 'the secret')
    await writeFile(join(outside, 'assets', 'lib-Ef56Gh78.js'), 'another secret')
    await writeFile(join(site, 'assets', 'app-Zz99Yy88.js'), 'the old app')
    await symlink(join(outside, 'secret-Ab12Cd34.js'), join(site, 'assets', 'secret-Ab12Cd34.js'))
    await symlink(join(outside, 'assets'), join(site, 'linked'))
    // Inside the folder, a link named by the manifest is as good as the file.
    await symlink('app-Zz99Yy88.js', join(site, 'assets', 'alias-Qq11Rr22.js'))

    const listed = await folderVersionSource(site).list()
    const read = async (versions: typeof listed) =>
      Object.fromEntries(await Promise.all(versions.map(async (v) => [v.path, (await v.read())?.toString()])))
    // Listed from the files: links are not walked (neither the file link nor the linked folder).
    expect(await read(listed)).toEqual({ 'assets/app-Zz99Yy88.js': 'the old app' })

    // A manifest planted in the folder names the link and a path under the linked folder.
    await writeFile(
      join(site, '.preencode-manifest.json'),
      JSON.stringify({
        files: [
          { path: 'assets/secret-Ab12Cd34.js' },
          { path: 'linked/lib-Ef56Gh78.js' },
          { path: 'assets/alias-Qq11Rr22.js' },
        ],
      }),
    )
    expect(await read(await folderVersionSource(site).list())).toEqual({
      'assets/secret-Ab12Cd34.js': undefined,
      'linked/lib-Ef56Gh78.js': undefined,
      'assets/alias-Qq11Rr22.js': 'the old app',
    })
  })
})
