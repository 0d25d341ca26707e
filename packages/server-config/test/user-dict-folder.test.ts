// A user's own folder named like our delta folders (`my.dict/`) holds files like any other: the
// generated nginx and Apache configs take for a delta only the exact shape of core's deltaPath
// (issue 29), so a user's `notes.dcb` there gets no `Content-Encoding: dcb` and a page there
// gets its variant with `Vary: Accept-Encoding`. Real servers, started by the e2e harness.
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Manifest } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get } from '../../../e2e/harness/http.ts'
import { startServer } from '../../../e2e/harness/servers.ts'
import { buildFixtureSite } from './fixture.ts'

let dir: { path: string; remove: () => Promise<void> }
let manifest: Manifest

beforeAll(async () => {
  dir = await tempDir('user-dict-folder')
  await chmod(dir.path, 0o755)
  manifest = await buildFixtureSite(dir.path, { keepOriginals: true })
  await mkdir(join(dir.path, 'my.dict'), { mode: 0o755 })
  await writeFile(join(dir.path, 'my.dict', 'notes.dcb'), 'my own notes, not a delta\n')
  await copyFile(join(dir.path, 'index.html'), join(dir.path, 'my.dict', 'page.html'))
  await copyFile(join(dir.path, 'index.html.br'), join(dir.path, 'my.dict', 'page.html.br'))
}, 120_000)
afterAll(() => dir?.remove())

describe.each(['nginx-stock', 'apache-htaccess'] as const)("%s: a user's my.dict/ folder", (kind) => {
  it('is served like any folder: no delta coding on their files, Vary on their pages', async () => {
    const server = await startServer(kind, manifest, dir.path)
    try {
      const notes = await get(`${server.url}/my.dict/notes.dcb`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
      expect(notes.status).toBe(200)
      expect(notes.one('content-encoding')).toBeUndefined()
      expect(notes.body.toString()).toBe('my own notes, not a delta\n')
      const page = await get(`${server.url}/my.dict/page.html`, { 'accept-encoding': 'br' })
      expect(page.status).toBe(200)
      expect(page.one('content-encoding')).toBe('br')
      expect(page.headers.get('vary')?.join(',').toLowerCase()).toContain('accept-encoding')
    } finally {
      await server.stop()
    }
  }, 120_000)
})
