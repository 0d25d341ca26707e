// Previous versions from a deploy target's listing and deploy state (S3, rsync): generations by
// deploy, only keys still stored, only versioned assets, and no hostile key ever read.
import { describe, expect, it } from 'vitest'
import { deployedVersionSource } from '../../src/deltas/previous-versions.js'

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
