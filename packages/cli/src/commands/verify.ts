import { resolve } from 'node:path'
import { type OptionLabel, reconcileManifest, userError } from '@preencode/core'
import { resolveVerifySettings, type VerifySettings, verifySite } from '@preencode/server-config'
import { defineCommand } from 'citty'
import { isRecord, type LoadedConfig, loadConfig, settingLabel } from '../options/config-file.js'
import { assertKnownFlags, numberFlag } from '../options/flags.js'
import { createLogger, printJson } from '../output.js'
import { assertReachable } from '../reach.js'
import { formatVerifyReport } from '../render.js'

const args = {
  url: { type: 'positional', description: 'Where the site is served, e.g. https://example.com/', required: true },
  dir: {
    type: 'positional',
    description: 'The local build it should match (holding .preencode-manifest.json)',
    required: true,
  },
  limit: { type: 'string', description: 'Check at most N files (HTML first, then a spread sample)', valueHint: 'n' },
  concurrency: { type: 'string', description: 'Requests in flight at most (default 8)', valueHint: 'n' },
  cache: {
    type: 'boolean',
    description:
      'The URL is a shared cache or CDN: also ask in an order that exposes stripped codings, a coding stored for another request, deltas not served, a missing Vary',
  },
  timeout: {
    type: 'string',
    description: 'Seconds one answer (headers and body) may take; the first slower one stops the run (default 30)',
    valueHint: 'seconds',
  },
  deadline: { type: 'string', description: 'Seconds the whole run may take (default 600)', valueHint: 'seconds' },
  json: { type: 'boolean', description: 'Print every check as JSON' },
} as const

/**
 * `preencode verify <url> <dir>`: requests each file with Accept-Encoding br, gzip, zstd,
 * identity, none and `br;q=0, gzip`, and checks the answers against the manifest (with `--cache`,
 * also the sequences of server-config's `verify/cache.ts`). Prints a table of what failed; any
 * failure exits non-zero.
 */
export const verifyCommand = defineCommand({
  meta: { name: 'verify', description: 'Check a deployed site serves the right variants, types, Vary and bytes' },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const root = resolve(parsed.dir)
    const loaded = await loadConfig(process.cwd())
    const { settings, label } = resolveVerifyFlags(parsed, loaded)
    const timeoutMs = settings.timeout === undefined ? undefined : settings.timeout * 1000
    await assertReachable(parsed.url, timeoutMs, label('timeout'))
    // Brought up to date with the disk first, so the checks compare against the files as they are.
    const { manifest } = await reconcileManifest(root, { logger: createLogger({ quiet: parsed.json === true }) })
    const result = await verifySite(parsed.url, manifest, root, { ...settings, cache: parsed.cache === true }, label)
    if (parsed.json === true) printJson(result)
    else process.stdout.write(`${formatVerifyReport(result)}\n`)
    if (result.failures.length > 0) {
      throw userError(
        'verify',
        `${result.failures.length} of ${result.checks.length} checks failed against ${parsed.url}.`,
        { code: 'VERIFY_FAILED' },
      )
    }
  },
})

/** The verify settings: the flags laid over the file's `verify` section, resolved once, and how to name each. */
function resolveVerifyFlags(
  parsed: Partial<Record<'limit' | 'concurrency' | 'timeout' | 'deadline', string>>,
  loaded: LoadedConfig | undefined,
): { settings: VerifySettings; label: OptionLabel } {
  const section = loaded?.config.verify
  const fromFlags = Object.fromEntries(
    (['limit', 'concurrency', 'timeout', 'deadline'] as const)
      .filter((key) => parsed[key] !== undefined)
      .map((key) => [key, numberFlag(parsed[key])]),
  )
  const label = settingLabel('verify', loaded?.path, (key) => (key in fromFlags ? `--${key}` : undefined))
  // A section that is not an object is passed on as it is, for the resolver to name it.
  const raw = section === undefined || isRecord(section) ? { ...section, ...fromFlags } : section
  return { settings: resolveVerifySettings(raw, label), label }
}
