// The journal of a run in progress (journal.ts): internal, so imported from source.
import { appendFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JOURNAL_FILENAME, journaledFiles, openJournal } from '../../src/fs/journal.js'
import { put } from '../fixtures.js'

describe('the journal of a killed run', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeEach(async () => {
    dir = await tempDir('journal')
  })
  afterEach(async () => {
    await dir.remove()
  })

  it('names only files that still hold the journaled bytes; torn lines and unsafe paths are ignored', async () => {
    const journal = openJournal(dir.path)
    await journal.record('a.html.br', 'bytes of a')
    await journal.record('b.html.gz', 'bytes of b')
    await journal.record('c.html.zst', 'bytes of c')
    await journal.close()
    await put(dir.path, 'a.html.br', 'bytes of a')
    await put(dir.path, 'b.html.gz', 'the user put other bytes here since')
    // c.html.zst was never renamed into place: the run was killed first.
    await appendFile(join(dir.path, JOURNAL_FILENAME), '{"path":"../outside.br","sha256":"00"}\n{"path":"d.ht')
    expect(await journaledFiles(dir.path)).toEqual(['a.html.br'])
    expect(await journaledFiles(dir.path, new Set(['b.html.gz']))).toEqual([])
  })

  it('a run that writes nothing leaves no journal; finish removes it', async () => {
    const idle = openJournal(dir.path)
    await idle.finish()
    expect(await journaledFiles(dir.path)).toEqual([])
    const busy = openJournal(dir.path)
    await busy.record('x.js.br', 'x')
    await writeFile(join(dir.path, 'x.js.br'), 'x')
    expect(await journaledFiles(dir.path)).toEqual(['x.js.br'])
    await busy.finish()
    expect(await journaledFiles(dir.path)).toEqual([])
  })
})
