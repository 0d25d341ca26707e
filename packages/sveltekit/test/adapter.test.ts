// The adapter wrapper with a stand-in for SvelteKit's builder (the real build is the e2e test
// e2e/frameworks/): which folders get compressed, the adapter's own precompress, bad input.
import { mkdirSync, writeFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { decodeWithDictionary, readManifest } from '@preencode/core'
import { preencode } from '@preencode/sveltekit'
import { tempDir } from '@preencode/test-utils'
import type { Adapter, Builder } from '@sveltejs/kit'
import { afterEach, describe, expect, it } from 'vitest'

const PAGE = `<!doctype html><title>page</title>${'<p>Pre-compressed once at build time, served as br or zstd.</p>'.repeat(40)}`
const SCRIPT = `export const notes = ${JSON.stringify(Array.from({ length: 60 }, (_, i) => `note ${i}: variants hold the final bytes`))}\n`

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const clean of cleanups.splice(0)) await clean()
})

/** Synchronous, like SvelteKit's own writeClient/writePrerendered. */
function write(path: string, text: string): string[] {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return [path]
}

/** A builder whose write* calls write real files, and which records what the adapter logged. */
function fakeBuilder(): { builder: Builder; warnings: string[]; compressed: string[] } {
  const warnings: string[] = []
  const compressed: string[] = []
  const log = Object.assign(() => {}, {
    info: () => {},
    minor: () => {},
    success: () => {},
    error: () => {},
    warn: (message: string) => {
      warnings.push(message)
    },
  })
  const builder = {
    log,
    writeClient: (dest: string) => write(join(dest, '_app/app.js'), SCRIPT),
    writePrerendered: (dest: string) => write(join(dest, 'index.html'), PAGE),
    generateFallback: async (dest: string) => {
      write(dest, PAGE)
    },
    compress: async (dir: string) => {
      compressed.push(dir)
      return []
    },
  }
  return { builder: builder as unknown as Builder, warnings, compressed }
}

function staticLikeAdapter(out: string, precompress = false): Adapter {
  return {
    name: 'fake-static',
    async adapt(builder) {
      builder.writeClient(out)
      builder.writePrerendered(out)
      await builder.generateFallback(join(out, '200.html'))
      if (precompress) await builder.compress(out)
    },
  }
}

describe('@preencode/sveltekit', () => {
  it('compresses the folders the adapter wrote, after it finished, and replaces its precompress', async () => {
    const dir = await tempDir('sveltekit-wrapper')
    cleanups.push(dir.remove)
    const out = join(dir.path, 'build')
    const { builder, warnings, compressed } = fakeBuilder()
    await preencode(staticLikeAdapter(out, true), { report: false, cache: false }).adapt(builder)

    for (const file of ['index.html', '200.html', '_app/app.js']) {
      const original = await readFile(join(out, file))
      expect(brotliDecompressSync(await readFile(join(out, `${file}.br`))).equals(original), file).toBe(true)
    }
    const manifest = JSON.parse(await readFile(join(out, '.preencode-manifest.json'), 'utf8')) as {
      files: { path: string }[]
    }
    expect(manifest.files.map((file) => file.path).sort()).toEqual(['200.html', '_app/app.js', 'index.html'])
    expect(compressed, "the adapter's own compress never ran").toEqual([])
    expect(warnings.join('\n')).toMatch(/fake-static's own `precompress` was skipped/)
  })

  it('writes delta updates by default, as the Vite plugin does: the second build gets a dcb/dcz against the first', async () => {
    const dir = await tempDir('sveltekit-deltas')
    cleanups.push(dir.remove)
    const out = join(dir.path, 'build')
    const V1 = Buffer.from(
      Array.from({ length: 2000 }, (_, i) => `export const f${i} = (x) => x * ${i % 13}\n`).join(''),
    )
    const V2 = Buffer.concat([V1.subarray(0, 20_000), Buffer.from('export const edited = 2\n'), V1.subarray(20_000)])
    const adapter: Adapter = {
      name: 'fake-client-only',
      adapt: (builder) => {
        builder.writeClient(out)
      },
    }
    const wrapped = preencode(adapter, { cache: join(dir.path, 'cache'), report: false })
    for (const [name, bytes] of [
      ['app-Ab12Cd34.js', V1],
      ['app-Ef56Gh78.js', V2],
    ] as const) {
      await rm(out, { recursive: true, force: true })
      const { builder } = fakeBuilder()
      await wrapped.adapt(
        Object.assign(builder, {
          writeClient: (dest: string) => write(join(dest, 'assets', name), bytes.toString()),
        }),
      )
    }
    const app = (await readManifest(out)).files.find((f) => f.path === 'assets/app-Ef56Gh78.js')!
    expect(app.useAsDictionary).toBe('app-*.js')
    expect(app.deltas?.map((d) => d.encoding).sort()).toEqual(['dcb', 'dcz'])
    for (const delta of app.deltas!) {
      const body = await readFile(join(out, delta.path))
      expect((await decodeWithDictionary(delta.encoding, body, V1)).equals(V2)).toBe(true)
    }
  })

  it('keeps the adapter itself: its name and other fields', () => {
    const adapter = { ...staticLikeAdapter('build'), supports: { read: () => true } }
    const wrapped = preencode(adapter)
    expect(wrapped.name).toBe('fake-static')
    expect(wrapped.supports).toBe(adapter.supports)
  })

  it('fails with one line naming what is wrong', () => {
    expect(() => preencode('static' as unknown as Adapter)).toThrow(
      /\[preencode\] \[sveltekit\] preencode\(adapter\) takes the adapter itself/,
    )
    expect(() => preencode(staticLikeAdapter('build'), { report: 'yes' as never })).toThrow(
      /`report` is "yes"; it accepts true, false, 'json' or 'html'/,
    )
    expect(() => preencode(staticLikeAdapter('build'), { formts: ['br'] } as never)).toThrow(/formts/)
    expect(() =>
      preencode(staticLikeAdapter('build'), {
        serverConfigs: [{ server: 'nginx', path: 'deploy/nginx.conf' }],
      } as never),
    ).toThrow(/\[sveltekit\] `serverConfigs\[0\]` \(nginx\) needs `root`/)
  })
})
