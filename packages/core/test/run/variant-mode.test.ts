// Variants take their original's mode (issue 35): a private original (0600) never gets a
// world-readable variant, and an executable one (0755) never executable variants — but for the
// owner's u+x mark the generated nginx/Apache configs test (`variantsToWrite`), which only says
// that a variant is smaller than its sibling the servers try first.
import { chmod, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { compress } from '@preencode/core'
import { tempDir } from '@preencode/test-utils'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { put, textOf } from '../fixtures.js'

let site: Awaited<ReturnType<typeof tempDir>>
beforeEach(async () => {
  site = await tempDir('variant-mode')
})
afterEach(async () => {
  await site.remove()
})

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777

it('writes each variant with its original mode, execute bits cleared but the u+x mark', async () => {
  const originals: Record<string, number> = { 'private.js': 0o600, 'script.js': 0o755, 'group.css': 0o640 }
  for (const [path, mode] of Object.entries(originals)) {
    await put(site.path, path, textOf(20_000, mode))
    await chmod(join(site.path, path), mode)
  }
  const { manifest } = await compress(site.path, { cache: false })
  let checked = 0
  for (const file of manifest.files) {
    const original = originals[file.path]!
    for (const variant of file.variants) {
      const mode = await modeOf(join(site.path, variant.path))
      expect(mode & 0o666, variant.path).toBe(original & 0o666)
      expect(mode & 0o011, `${variant.path}: group and others never execute`).toBe(0)
      checked++
    }
  }
  expect(checked).toBe(9)
  // A rerun that writes nothing still corrects the mode of a variant changed since.
  const br = join(site.path, 'private.js.br')
  const marked = (await modeOf(br)) & 0o100
  await chmod(br, 0o644)
  await compress(site.path, { cache: false })
  expect(await modeOf(br)).toBe(0o600 | marked)
})
