// RFC 9842 pieces in core: stream headers byte-exact, deltas that decode with their dictionary
// (and with the system zstd CLI for dcz), the strict Available-Dictionary parser, the
// Use-As-Dictionary header, and delta paths that cannot leave their directory.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '@preencode/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dczWindowLimit, decodeWithDictionary, encodeWithDictionary } from '../../src/codecs/dictionary.js'
import {
  AVAILABLE_DICTIONARY_PATTERN,
  availableDictionaryValue,
  dictionaryId,
  parseAvailableDictionary,
} from '../../src/codecs/dictionary-hash.js'
import { encodeBuffer } from '../../src/codecs/encode.js'
import { deltaPath, originalOfDeltaPath } from '../../src/deltas/delta-paths.js'
import { useAsDictionaryHeader, versionedAsset } from '../../src/http/use-as-dictionary.js'
import { randomBytesOf, textOf, zstdFrameWindow } from '../fixtures.js'

const sha = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest()

/** Version 2 of a bundle: version 1 with a few lines edited, one inserted, one removed. */
function editedCopy(base: Buffer): Buffer {
  const lines = base.toString('latin1').split('\n')
  lines[10] = 'const edited = "version 2";'
  lines.splice(400, 1)
  lines.splice(900, 0, 'export function added() { return 42 }')
  return Buffer.from(lines.join('\n'), 'latin1')
}

describe('dcb / dcz streams', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('dictionary')
  })
  afterAll(async () => {
    await dir.remove()
  })

  const v1 = textOf(120_000, 3)
  const v2 = editedCopy(v1)

  it('dcb starts with FF 44 43 42 and the dictionary SHA-256 (36 bytes), then brotli with the dictionary', async () => {
    const body = await encodeWithDictionary('dcb', v2, v1, { path: 'app.js' })
    expect([...body.subarray(0, 4)]).toEqual([0xff, 0x44, 0x43, 0x42])
    expect(body.subarray(4, 36).equals(sha(v1))).toBe(true)
    expect((await decodeWithDictionary('dcb', body, v1)).equals(v2)).toBe(true)
  })

  it('dcz starts with the 40-byte skippable frame 5E 2A 4D 18 20 00 00 00 + SHA-256, then a zstd frame', async () => {
    const body = await encodeWithDictionary('dcz', v2, v1)
    expect([...body.subarray(0, 8)]).toEqual([0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00])
    expect(body.subarray(8, 40).equals(sha(v1))).toBe(true)
    expect(body.readUInt32LE(40)).toBe(0xfd2fb528)
    expect((await decodeWithDictionary('dcz', body, v1)).equals(v2)).toBe(true)
  })

  it('the system zstd CLI decodes a dcz body with the raw dictionary (skippable frame included)', async () => {
    const body = await encodeWithDictionary('dcz', v2, v1)
    await writeFile(join(dir.path, 'dict'), v1)
    await writeFile(join(dir.path, 'app.js.dcz'), body)
    const decoded = execFileSync(
      'zstd',
      ['-d', '-c', '-q', '-D', join(dir.path, 'dict'), join(dir.path, 'app.js.dcz')],
      { maxBuffer: 1 << 26 },
    )
    expect(decoded.equals(v2)).toBe(true)
  })

  it('a small edit costs a tiny fraction of brotli 11', async () => {
    const [dcb, dcz, br] = await Promise.all([
      encodeWithDictionary('dcb', v2, v1, { path: 'app.js' }),
      encodeWithDictionary('dcz', v2, v1),
      encodeBuffer('brotli', v2, 11, { path: 'app.js' }),
    ])
    expect(dcb.byteLength).toBeLessThan(br.byteLength * 0.05)
    expect(dcz.byteLength).toBeLessThan(br.byteLength * 0.05)
  })

  it('refuses to decode with another dictionary (the header names the one it needs)', async () => {
    const body = await encodeWithDictionary('dcb', v2, v1)
    await expect(decodeWithDictionary('dcb', body, textOf(120_000, 4))).rejects.toThrow(/does not name this dictionary/)
    const forged = Buffer.concat([Buffer.from([0xff, 0x44, 0x43, 0x42]), sha(v2), body.subarray(36)])
    await expect(decodeWithDictionary('dcb', forged, v2)).rejects.toThrow()
  })

  it('round-trips binary data and an empty body', async () => {
    const bin = randomBytesOf(30_000)
    for (const encoding of ['dcb', 'dcz'] as const) {
      expect(
        (await decodeWithDictionary(encoding, await encodeWithDictionary(encoding, bin, v1), v1)).equals(bin),
      ).toBe(true)
      expect(
        (await decodeWithDictionary(encoding, await encodeWithDictionary(encoding, Buffer.alloc(0), v1), v1))
          .byteLength,
      ).toBe(0)
    }
  })

  it('dcz keeps its window within max(8 MiB, 1.25 x dictionary)', async () => {
    const body = await encodeWithDictionary('dcz', v2, v1)
    expect(zstdFrameWindow(body.subarray(40))).toBeLessThanOrEqual(dczWindowLimit(v1.byteLength))
    expect(dczWindowLimit(1000)).toBe(8 * 1024 * 1024)
    expect(dczWindowLimit(64 * 1024 * 1024)).toBe(80 * 1024 * 1024)
    expect(dczWindowLimit(1024 * 1024 * 1024)).toBe(128 * 1024 * 1024)
  })
})

describe('Available-Dictionary (request header)', () => {
  const hash = sha(Buffer.from('dictionary'))
  const b64 = hash.toString('base64')

  it('accepts exactly one sf-binary SHA-256 and returns its base64', () => {
    expect(availableDictionaryValue(hash)).toBe(`:${b64}:`)
    expect(availableDictionaryValue(hash.toString('hex'))).toBe(`:${b64}:`)
    expect(parseAvailableDictionary(`:${b64}:`)).toBe(b64)
    expect(parseAvailableDictionary(` :${b64}:\t`)).toBe(b64)
    expect(dictionaryId(hash)).toBe(b64)
  })

  const hostile: [string, string | string[] | undefined][] = [
    ['missing', undefined],
    ['empty', ''],
    ['no colons', b64],
    ['one colon', `:${b64}`],
    ['31 bytes', `:${hash.subarray(0, 31).toString('base64')}:`],
    ['33 bytes', `:${Buffer.concat([hash, Buffer.from([1])]).toString('base64')}:`],
    ['64-byte SHA-512', `:${createHash('sha512').update('x').digest('base64')}:`],
    ['base64url alphabet', `:${hash.toString('base64url')}=:`],
    ['non-canonical last character', `:${b64.slice(0, 42)}B=:`],
    ['two values', `:${b64}:, :${b64}:`],
    ['array of values', [`:${b64}:`, `:${b64}:`]],
    ['parameter', `:${b64}:;a=1`],
    ['dot-dot', `:../../../../../../../../etc/passwd/../../../aaaaa=:`],
    ['slashes only', `:${'/'.repeat(43)}=:`.replace('/'.repeat(43), `${'/'.repeat(42)}A`)],
    ['percent-encoded slash', `:${b64.slice(0, 40)}%2f=:`],
    ['NUL', `:${b64.slice(0, 42)}\0=:`],
    ['space inside', `:${b64.slice(0, 20)} ${b64.slice(21)}:`],
    ['newline', `:${b64}:\n`],
    ['quoted string', `"${b64}"`],
    ['huge', `:${'A'.repeat(10_000)}=:`],
    ['hex digest', `:${hash.toString('hex')}:`],
  ]
  for (const [label, value] of hostile) {
    it(`rejects ${label}`, () => {
      // 'slashes only' is well-formed base64 of 32 bytes and must be accepted: the delta path
      // then nests directories, never climbs out (see the deltaPath test).
      if (label === 'slashes only') expect(parseAvailableDictionary(value)).toBe(`${'/'.repeat(42)}A=`)
      else expect(parseAvailableDictionary(value)).toBeUndefined()
    })
  }

  it('the exported pattern is the same rule for server generators', () => {
    const pattern = new RegExp(AVAILABLE_DICTIONARY_PATTERN)
    for (const [, value] of hostile)
      if (typeof value === 'string' && value !== `:${'/'.repeat(42)}A=:`) expect(pattern.test(value)).toBe(false)
    expect(pattern.exec(`:${b64}:`)?.[1]).toBe(b64)
  })
})

describe('Use-As-Dictionary (response header)', () => {
  it('derives a relative match pattern from a hashed name', () => {
    expect(versionedAsset('assets/index-BxK3_z9a.js')).toEqual({
      dir: 'assets/',
      match: 'index-*.js',
      key: 'assets/index-*.js',
    })
    expect(versionedAsset('assets/vendor-react-a1B2c3D4.js')?.match).toBe('vendor-react-*.js')
    expect(versionedAsset('main.3f2a9c8e7d6b5a41.css')?.match).toBe('main.*.css')
    expect(versionedAsset('app-Ab-d_9Zq.mjs')?.match).toBe('app-*.mjs')
    expect(versionedAsset('index.html')).toBeUndefined()
    expect(versionedAsset('assets/logo-BxK3_z9a.png')).toBeUndefined()
    expect(versionedAsset('assets/a(b)-BxK3_z9a.js')).toBeUndefined()
    expect(versionedAsset('assets/x:y-BxK3_z9a.js')).toBeUndefined()
  })

  it('writes the header byte-exact as an RFC 8941 dictionary', () => {
    expect(useAsDictionaryHeader('index-*.js')).toBe('match="index-*.js"')
    expect(useAsDictionaryHeader('/p/*', { matchDest: ['document', 'frame'], id: 'pages-1' })).toBe(
      'match="/p/*", match-dest=("document" "frame"), id="pages-1"',
    )
    expect(useAsDictionaryHeader('a"b\\')).toBe('match="a\\"b\\\\"')
    expect(() => useAsDictionaryHeader('é')).toThrow(/printable ASCII/)
  })
})

describe('delta paths', () => {
  it('names the delta from the original and the header value alone', () => {
    const id = sha(Buffer.from('v1')).toString('base64')
    expect(deltaPath('assets/app-BxK3_z9a.js', id, 'dcb')).toBe(
      `assets/app-BxK3_z9a.js.dict/${id}.js.dcb`.replace(/\/{2,}/g, '/'),
    )
    expect(originalOfDeltaPath(deltaPath('assets/app-BxK3_z9a.js', id, 'dcz'))).toBe('assets/app-BxK3_z9a.js')
    expect(originalOfDeltaPath('assets/app.js.br')).toBeUndefined()
    expect(originalOfDeltaPath('assets/app.js.dict/notes.txt')).toBeUndefined()
  })

  it('a slash-heavy id nests directories and never leaves the delta directory', () => {
    const id = `${'/'.repeat(42)}A=`
    const path = deltaPath('assets/app.js', id, 'dcb')
    expect(path).toBe('assets/app.js.dict/A=.js.dcb')
    expect(path.split('/')).not.toContain('..')
    expect(originalOfDeltaPath(path)).toBe('assets/app.js')
  })
})
