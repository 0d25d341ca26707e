// The folder lock (fs/folder-lock.ts) within one process: nested takers of one lock run at once,
// separate ones queue, and what is on disk between them is one lock or none.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { withFolderLock, type FolderLockOptions } from '../src/fs/folder-lock.js'
import { tempDir } from '@preencode/test-utils'

describe('the folder lock within one process', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  const notes: string[] = []
  const options: FolderLockOptions = {
    file: '.test.lock',
    holderName: 'test run',
    description: 'the test folder',
    component: 'core',
    note: (message) => notes.push(message),
  }
  beforeEach(async () => {
    dir = await tempDir('folder-lock')
    notes.length = 0
  })
  afterEach(async () => {
    await dir.remove()
  })

  it('a nested taker runs at once; the lock names this process and is gone afterwards', async () => {
    const lock = join(dir.path, '.test.lock')
    const inner = await withFolderLock(dir.path, options, () =>
      withFolderLock(dir.path, options, async () => JSON.parse(await readFile(lock, 'utf8')) as { pid: number }),
    )
    expect(inner.pid).toBe(process.pid)
    expect(existsSync(lock)).toBe(false)
    expect(notes).toEqual([])
  })

  it('separate takers queue: one runs at a time, in order', async () => {
    const events: string[] = []
    const run = (name: string) =>
      withFolderLock(dir.path, options, async () => {
        events.push(`${name} in`)
        await new Promise((resolve) => setTimeout(resolve, 20))
        events.push(`${name} out`)
      })
    await Promise.all([run('a'), run('b'), run('c')])
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out'])
    expect(existsSync(join(dir.path, '.test.lock'))).toBe(false)
  })
})
