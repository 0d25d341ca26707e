// The folder lock (fs/folder-lock.ts) within one process: nested takers of one lock run at once,
// separate ones queue, and what is on disk between them is one lock or none.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FolderLockOptions, withFolderLock } from '../../src/fs/folder-lock.js'

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

  it('a zombie holder (killed, never reaped) is gone: its lock is taken over with a note', async (context) => {
    if (!existsSync('/proc/self/stat')) return context.skip()
    // The child prints its pid and exits; its parent has become `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', "sh -c 'echo $$' & exec sleep 60"], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const pid = Number(
        await new Promise<string>((done) => parent.stdout.once('data', (c: Buffer) => done(c.toString()))),
      )
      let state = ''
      while (state !== 'Z') {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
        state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!
      }
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
      await writeFile(
        join(dir.path, '.test.lock'),
        `${JSON.stringify({ pid, host: hostname(), time: Date.now(), start })}\n`,
      )
      expect(() => process.kill(pid, 0)).not.toThrow() // what the check saw: "alive"
      const held = await withFolderLock(dir.path, options, async () => 'ran')
      expect(held).toBe('ran')
      expect(notes.join('\n')).toContain(String(pid))
    } finally {
      parent.kill()
    }
  })
})
