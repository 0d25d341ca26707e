// `preencode deploy --key-value-store` checks CloudFront's KeyValueStore limits before anything
// is uploaded, and in a dry run too (issue 30): a path longer than a store key may be (512
// bytes) used to fail after the objects were live, with no store file, and a dry run said nothing.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../dist/bin.js')

function cli(args: string[], cwd: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '', XDG_CACHE_HOME: join(cwd, 'user-cache') },
    timeout: 120_000,
  })
  return { status: run.status, stderr: run.stderr }
}

let work: { path: string; remove: () => Promise<void> }
let site = ''
/** 513 bytes: a tiny script (no variants, so the store lists it) deep in folders. */
const LONG = `${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(108)}.js`

beforeAll(async () => {
  work = await tempDir('cli-deploy-kvs')
  site = join(work.path, 'dist')
  await mkdir(dirname(join(site, LONG)), { recursive: true })
  await writeFile(join(site, 'index.html'), `<!doctype html><title>t</title>${'<p>a page</p>\n'.repeat(200)}`)
  await writeFile(join(site, LONG), 'console.log(1)\n')
  expect(Buffer.byteLength(LONG)).toBe(513)
  expect(cli(['compress', site, '--quiet'], work.path).status).toBe(0)
})
afterAll(async () => {
  await work?.remove()
})

describe('deploy --key-value-store', () => {
  it.each([[[] as string[]], [['--dry-run']]])(
    'refuses a 513-byte path before uploading anything %j, in one line, and writes no store',
    async (extra) => {
      const target = join(work.path, `target${extra.length}`)
      await mkdir(target)
      const store = join(work.path, `kvs${extra.length}.json`)
      const run = cli(['deploy', site, '--to', target, '--key-value-store', store, ...extra], work.path)
      expect(run.status).toBe(1)
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
      expect(run.stderr).toMatch(
        /--key-value-store: .*a CloudFront KeyValueStore key holds at most 512 bytes \(this path has 513\).*Nothing was uploaded\./,
      )
      expect(await readdir(target)).toEqual([])
      expect(existsSync(store)).toBe(false)
    },
  )
})
