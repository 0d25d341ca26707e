/**
 * How every `preencode` subcommand reads its flags, so they parse and fail alike: comma lists,
 * whole numbers, numbers left to the setting's rule, unknown-flag rejection.
 */
import { userError } from '@preencode/core'
import type { ArgsDef } from 'citty'

/** `"gzip, brotli,,zstd"` -> `['gzip', 'brotli', 'zstd']`; undefined when the flag was not given. */
export function parseList(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined
  const items = String(value)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  if (items.length === 0) throw userError('cli', `--${flag} needs a comma-separated list, e.g. --${flag} gzip,brotli.`)
  return items
}

/** `"9"` -> 9; undefined when the flag was not given; a clear error for `"nine"` or `"1.5"`. */
export function parseInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const text = String(value).trim()
  if (!/^-?\d+$/.test(text)) throw userError('cli', `--${flag} must be a whole number; got \`${String(value)}\`.`)
  return Number(text)
}

/**
 * A number flag as a number (`"2.5"` -> 2.5); anything else as typed, for the setting's one rule
 * to refuse naming the flag (`--timeout must be a number of seconds > 0; got "soon".`).
 */
export function numberFlag(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined
  const text = String(value).trim()
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : String(value)
}

/**
 * citty ignores flags it does not know; a typo such as `--formts` would then silently do
 * nothing. This rejects any `--flag`/`-f` not declared in `args` (kebab or camel case, `--no-`
 * negations of booleans included) and names the flags that exist.
 */
export function assertKnownFlags(rawArgs: readonly string[], args: ArgsDef): void {
  const known = new Set<string>(['help', 'h'])
  for (const [name, def] of Object.entries(args)) {
    if (def.type === 'positional') continue
    const alias = 'alias' in def ? def.alias : undefined
    const names = [name, ...(alias === undefined ? [] : [alias].flat())]
    for (const n of names) {
      known.add(kebab(n))
      if (def.type === 'boolean') known.add(`no-${kebab(n)}`)
    }
  }
  for (const arg of rawArgs) {
    if (arg === '--') break
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) continue
    const flag = kebab(arg.replace(/^--?/, '').split('=')[0] ?? '')
    if (!known.has(flag)) {
      const listed = Object.entries(args)
        .filter(([, d]) => d.type !== 'positional')
        .map(([n]) => `--${kebab(n)}`)
      // A flag named after another plugin's option: say what it is called here.
      const peer = PEER_FLAGS[flag]
      if (peer && (!peer.startsWith('--') || known.has(peer.slice(2).split(' ')[0]!))) {
        throw userError(
          'cli',
          `Unknown option \`${arg.split('=')[0]}\` (another plugin's name): use ${peer}. See docs/migrating-from-vite-plugin-compression2.md.`,
        )
      }
      throw userError('cli', `Unknown option \`${arg.split('=')[0]}\`. Options: ${listed.join(', ')}.`)
    }
  }
}

/** vite-plugin-compression(2) options typed as flags, and the flag (or fact) that replaces them. */
const PEER_FLAGS: Readonly<Record<string, string>> = {
  algorithms: '--formats gzip,brotli,zstd',
  algorithm: '--formats gzip,brotli,zstd',
  'delete-original-assets': '--no-keep-originals',
  'delete-origin-file': '--no-keep-originals',
  'skip-if-larger-or-equal': 'nothing: a variant that is not smaller is never written',
  filename: 'nothing: variants are always named <file>.gz, .br, .zst',
  ext: 'nothing: variants are always named <file>.gz, .br, .zst',
  'log-level': '--quiet',
  verbose: '--quiet (the report is printed by default)',
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
}
