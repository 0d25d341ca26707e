// One rule for a file's extension (`extensionOf`, paths.ts) wherever preencode looks at one: the
// media type and compressibility, the delta's name, the variant suffix. A leading dot starts a
// name, not an extension (Node's `extname`, nginx's types), so a dotfile has none anywhere.
import { describe, expect, it } from 'vitest'
import { formatOfVariantPath } from '../../src/codecs/table.js'
import { deltaPath, originalOfDeltaPath } from '../../src/deltas/delta-paths.js'
import { contentTypeOf, isCompressible } from '../../src/http/media-types.js'
import { extensionOf } from '../../src/paths.js'

const ID = 'q1Zk3TyaJ1X8XnPa1c2d3e4f5g6h7i8j9k0lmnopqrs='

describe('extensionOf', () => {
  it('is the last segment’s extension with its dot, as written', () => {
    expect(
      ['assets/app.js', 'a.b/LICENSE', 'x/.htaccess', '.well-known/security', 'data/Report.JSON', 'app.js.br'].map(
        extensionOf,
      ),
    ).toEqual(['.js', '', '', '', '.JSON', '.br'])
  })

  it('types, names deltas and finds variants by the same rule', () => {
    expect([isCompressible('data/Report.JSON'), contentTypeOf('data/Report.JSON')]).toEqual([
      true,
      'application/json; charset=utf-8',
    ])
    // A dotfile named like an extension has none: not typed by it, its delta name has none either.
    expect([isCompressible('.json'), contentTypeOf('.json')]).toEqual([false, 'application/octet-stream'])
    expect(deltaPath('.json', ID, 'dcb')).toBe(`.json.dict/${ID}.dcb`)
    expect(originalOfDeltaPath(deltaPath('assets/app.js', ID, 'dcz'))).toBe('assets/app.js')
    expect([
      formatOfVariantPath('app.js.br')?.format,
      formatOfVariantPath('.br'),
      formatOfVariantPath('a.gz/x'),
    ]).toEqual(['brotli', undefined, undefined])
  })
})
