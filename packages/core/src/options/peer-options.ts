/**
 * Options people bring from other compression plugins, with what they are called here. Used by
 * the unknown-option errors, so a copied config fails with the way forward rather than a list.
 * Peers: vite-plugin-compression2 (2.x), vite-plugin-compression (1.x), compression-webpack-plugin.
 * docs/migrating-from-vite-plugin-compression2.md walks through the same table.
 */
import type { OptionLabel } from './option-label.js'

/** A hint, or one naming an option through the label (the CLI names `report` by its flags). */
type PeerHint = string | ((label: OptionLabel) => string)

const PEER_OPTIONS: Readonly<Record<string, PeerHint>> = {
  algorithms: "use `formats: ['gzip', 'brotli', 'zstd']` (all three by default)",
  algorithm: "use `formats: ['gzip', 'brotli', 'zstd']` (all three by default)",
  compressionOptions: 'use `levels: { gzip: 9, brotli: 11, zstd: 19 }` (those are the defaults)',
  deleteOriginalAssets: 'use `keepOriginals: false`',
  deleteOriginFile: 'use `keepOriginals: false`',
  skipIfLargerOrEqual: 'remove it: a variant that is not smaller is never written (`minSaving` sets how much smaller)',
  minRatio: 'use `minSaving` (the fraction saved: minRatio 0.8 is minSaving 0.2)',
  filename: 'remove it: variants are always named `<file>.gz`, `.br`, `.zst`, where servers look for them',
  ext: 'remove it: variants are always named `<file>.gz`, `.br`, `.zst`, where servers look for them',
  test: "use `include` (globs or RegExps, as in Rollup's createFilter)",
  filter: "use `include` / `exclude` (globs or RegExps, as in Rollup's createFilter)",
  logLevel: (label) => `use ${label('report')} (what the report prints: true, false or 'json')`,
  verbose: (label) => `use ${label('report')} (what the report prints: true, false or 'json')`,
  scheduler: 'use `concurrency` (files compressed at once)',
  artifacts: 'remove it: every file in the output is compressed, files other plugins copy included',
  disable: 'leave `preencode()` out of the plugin list instead',
  success: "remove it: read the report (`report: 'json'` gives it as JSON)",
}

/** Format names other tools use, and the name here. */
const PEER_FORMATS: Readonly<Record<string, string>> = {
  gz: 'gzip',
  br: 'brotli',
  brotliCompress: 'brotli',
  zstandard: 'zstd',
  zst: 'zstd',
}

/** The hint for an option another plugin spells differently; undefined when there is none. */
function peerOptionHint(key: string, label: OptionLabel): string | undefined {
  const hint = Object.hasOwn(PEER_OPTIONS, key) ? PEER_OPTIONS[key] : undefined
  return typeof hint === 'function' ? hint(label) : hint
}

/** `brotliCompress` -> `brotli`; undefined when the name means nothing known. */
export function peerFormatName(name: string): string | undefined {
  return Object.hasOwn(PEER_FORMATS, name) ? PEER_FORMATS[name] : undefined
}

/** The unknown-option message (`label` names the key): the peer's equivalent when there is one, else the known names. */
export function unknownOptionMessage(key: string, known: Iterable<string>, label: OptionLabel): string {
  const hint = peerOptionHint(key, label)
  if (hint)
    return `Unknown option ${label(key)} (another plugin's name): ${hint}. See docs/migrating-from-vite-plugin-compression2.md.`
  return `Unknown option ${label(key)}. Known options: ${[...known].join(', ')}.`
}
