// Issue 30.10: `deltas.versions` (`--delta-versions`, 1 to 20) is honoured. A file whose logical
// name (`index-*.js`) had one version in each of the last 20 deploys gets a delta against each of
// them, not against 8 (the former silent cap per file, which remains the floor for names that
// several chunks share in one deploy).
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'
import { decodeWithDictionary } from '../../src/codecs/dictionary.js'
import type { PreviousVersion, PreviousVersionSource } from '../../src/deltas/previous-versions.js'
import { writeDeltas } from '../../src/deltas/write-deltas.js'
import { resolveDeltaOptions } from '../../src/options/delta-options.js'
import { compress as compressDirectory } from '../../src/run/compress.js'
import { textOf } from '../fixtures.js'

const BASE = textOf(6000, 7)
const version = (n: number): Buffer =>
  Buffer.concat([BASE.subarray(0, 3000), Buffer.from(`\nconst v = ${n};\n`), BASE.subarray(3000)])
const nameOf = (n: number): string => `assets/index-Ab${String(n).padStart(2, '0')}Cd3E.js`

/** Version n was live n + 1 deploys ago (generation n), one per deploy. */
function source(count: number): PreviousVersionSource {
  const versions: PreviousVersion[] = Array.from({ length: count }, (_, n) => ({
    path: nameOf(n + 1),
    generation: n,
    sha256: createHash('sha256')
      .update(version(n + 1))
      .digest('hex'),
    read: async () => version(n + 1),
  }))
  return { description: 'test history', list: async () => versions }
}

describe('deltas.versions', () => {
  it.each([4, 12, 20])('versions %i: a delta against each of that many versions', async (versions) => {
    const site = await tempDir('delta-versions')
    try {
      await mkdir(join(site.path, 'assets'))
      await writeFile(join(site.path, nameOf(0)), version(0))
      const { manifest } = await compressDirectory(site.path, { cache: false })
      const options = resolveDeltaOptions({ versions, encodings: ['dcb'], remember: false })
      const result = await writeDeltas(site.path, manifest, options, { cacheDir: false, source: source(25) })
      const deltas = result.manifest.files.find((f) => f.path === nameOf(0))!.deltas ?? []
      expect(deltas.map((d) => d.dictionaryPath).sort()).toEqual(
        Array.from({ length: versions }, (_, n) => nameOf(n + 1)).sort(),
      )
      for (const delta of deltas) {
        const n = Number(/index-Ab(\d\d)/.exec(delta.dictionaryPath)![1])
        const body = await readFile(join(site.path, delta.path))
        expect((await decodeWithDictionary('dcb', body, version(n))).equals(version(0))).toBe(true)
      }
    } finally {
      await site.remove()
    }
  })
})
