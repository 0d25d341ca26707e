// RFC 9842 deltas travel with the site: a deploy to a folder uploads them, a later deploy
// whose manifest no longer lists them deletes them, and the deployed folder is where the next
// build's deltas come from (its deploy state names what each deploy uploaded).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  compress as compressDirectory,
  decodeWithDictionary,
  type Manifest,
  resolveDeltaOptions,
  writeDeltas,
} from '@preencode/core'
import { deploy, localTarget } from '@preencode/deploy'
import { tempDir } from '@preencode/test-utils'
import { describe, expect, it } from 'vitest'

const V1 = Buffer.from(
  Array.from({ length: 2500 }, (_, i) => `export function f${i}(x) { return x * ${i % 17} }\n`).join(''),
)
const V2 = Buffer.concat([V1.subarray(0, 30_000), Buffer.from('export const edited = 2\n'), V1.subarray(30_000)])

async function build(root: string, name: string, bytes: Buffer, previous: string): Promise<Manifest> {
  await rm(root, { recursive: true, force: true })
  for (const [path, data] of Object.entries({
    [`assets/${name}`]: bytes,
    'index.html': Buffer.from(`<!doctype html><script type="module" src="/assets/${name}"></script>`.padEnd(2000, ' ')),
  })) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), data)
  }
  const { manifest } = await compressDirectory(root, { cache: false })
  return (await writeDeltas(root, manifest, resolveDeltaOptions({ previous, remember: false }), { cacheDir: false }))
    .manifest
}

describe('deploy with deltas', () => {
  it('uploads the deltas, made against what the folder target holds, and deletes them once unlisted', async () => {
    const tmp = await tempDir('deploy-deltas')
    try {
      const site = join(tmp.path, 'site')
      const www = join(tmp.path, 'www')
      await mkdir(www)
      await build(site, 'app-Ab12Cd34.js', V1, www)
      await deploy({ dir: site, target: localTarget(www), delete: true })
      // Fresh runner: the site is rebuilt from scratch; the previous versions come from the target.
      const manifest = await build(site, 'app-Ef56Gh78.js', V2, www)
      const deltas = manifest.files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!.deltas!
      expect(deltas.map((d) => d.dictionaryPath)).toEqual(['assets/app-Ab12Cd34.js', 'assets/app-Ab12Cd34.js'])
      await deploy({ dir: site, target: localTarget(www), delete: true })
      for (const delta of deltas) {
        expect((await decodeWithDictionary(delta.encoding, await readFile(join(www, delta.path)), V1)).equals(V2)).toBe(
          true,
        )
      }
      await build(site, 'app-Ef56Gh78.js', V2, join(tmp.path, 'nothing-deployed'))
      await deploy({ dir: site, target: localTarget(www), delete: true })
      for (const delta of deltas) expect(await readFile(join(www, delta.path)).catch(() => 'gone')).toBe('gone')
    } finally {
      await tmp.remove()
    }
  })

  it('warns, naming the target, when deltas are asked of a target that cannot list its previous versions', async () => {
    const tmp = await tempDir('deploy-deltas-custom')
    try {
      const site = join(tmp.path, 'site')
      const www = join(tmp.path, 'www')
      await mkdir(www)
      await build(site, 'app-Ab12Cd34.js', V1, join(tmp.path, 'nothing-deployed'))
      const { previousVersions: _none, ...custom } = localTarget(www)
      const warnings: string[] = []
      const { summary } = await deploy({
        dir: site,
        target: custom,
        deltas: true,
        onEvent: (event) => {
          if (event.type === 'warning') warnings.push(event.message)
        },
      })
      expect(summary.deltas).toBeUndefined()
      expect(warnings).toEqual([expect.stringMatching(/^local folder .*www cannot list its previous versions/)])
    } finally {
      await tmp.remove()
    }
  })
})
