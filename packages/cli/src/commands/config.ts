import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { reconcileManifest, userError } from '@preencode/core'
import { writeFileAtomically } from '@preencode/core/internal'
import { isServer, SERVER_REGISTRY, SERVERS, type ServerEntry } from '@preencode/server-config'
import { type ArgsDef, defineCommand } from 'citty'
import { assertKnownFlags } from '../options/flags.js'
import { createLogger } from '../output.js'

const entries = Object.entries(SERVER_REGISTRY) as [string, ServerEntry<object>][]

/** Every server's flags and companion files, from the server registry; each applies to its servers only. */
function serverArgs(): ArgsDef {
  const args: ArgsDef = {}
  const owners = new Map<string, string[]>()
  for (const [server, entry] of entries) {
    for (const flag of [...Object.keys(entry.flags), ...entry.companions.map((c) => c.flag)])
      owners.set(flag, [...(owners.get(flag) ?? []), server])
  }
  for (const [server, entry] of entries) {
    for (const [flag, def] of Object.entries(entry.flags)) {
      const servers = owners.get(flag)!
      const existing = args[flag]
      if (existing && existing.valueHint !== def.valueHint) {
        // Values that differ by server (`--form`): say each server's.
        const first =
          existing.valueHint === 'form'
            ? existing.description
            : `${servers[0]}: ${existing.description} (${existing.valueHint})`
        args[flag] = {
          ...existing,
          description: `${first}; ${server}: ${def.description} (${def.valueHint})`,
          valueHint: 'form',
        }
        continue
      }
      args[flag] ??= {
        type: 'string',
        description: `${servers.length === 1 ? `${server}: ` : ''}${def.description}`,
        ...(def.valueHint ? { valueHint: def.valueHint } : {}),
      }
    }
    for (const companion of entry.companions)
      args[companion.flag] = { type: 'string', description: `${server}: ${companion.description}`, valueHint: 'file' }
  }
  return args
}

const args = {
  server: { type: 'positional', description: `One of ${SERVERS.join(', ')}`, required: true },
  dir: { type: 'positional', description: 'The compressed site (holding .preencode-manifest.json)', required: true },
  ...serverArgs(),
  out: {
    type: 'string',
    description:
      'Write to this file instead of stdout (a folder for a config of several files: nginx --form include, cloudflare)',
    valueHint: 'file|folder',
  },
} as const satisfies ArgsDef

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/**
 * `preencode config <server> <dir>`: prints (or writes with `--out`) the server config for the
 * site in `<dir>`. The config depends on options only (the manifest lends its formats and
 * cache values), so it is generated once and committed.
 */
export const configCommand = defineCommand({
  meta: {
    name: 'config',
    description:
      'Generate the Apache, nginx, Caddy, CloudFront, Varnish or Cloudflare Workers config that serves the variants',
  },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    const server = String(parsed.server)
    if (!isServer(server)) throw userError('cli', `Unknown server \`${server}\`. Accepted: ${SERVERS.join(', ')}.`)
    const entry = SERVER_REGISTRY[server] as ServerEntry<object>
    const given = parsed as Record<string, unknown>
    const value = (flag: string): string | undefined => (given[flag] ?? given[camel(flag)]) as string | undefined
    for (const flag of Object.keys(args)) {
      if (flag === 'server' || flag === 'dir' || flag === 'out' || value(flag) === undefined) continue
      if (!(flag in entry.flags) && !entry.companions.some((c) => c.flag === flag)) {
        const owners = entries
          .filter(([, e]) => flag in e.flags || e.companions.some((c) => c.flag === flag))
          .map(([name]) => name)
        throw userError('cli', `--${flag} applies to ${owners.join(', ')} only.`)
      }
    }
    const dir = resolve(parsed.dir)
    // Brought up to date with the disk first: a post-build step may have added or edited files.
    const { manifest } = await reconcileManifest(dir, { logger: createLogger() })
    const options: Record<string, unknown> = {}
    for (const [flag, def] of Object.entries(entry.flags)) {
      const text = value(flag)
      if (text !== undefined) options[def.option] = def.parse ? def.parse(text) : text
    }
    const needs = entry.needsRoot(options)
    if (needs === 'from-output') {
      if (parsed.out === undefined)
        throw userError('cli', `\`config ${server}\` writes several files: give --out <folder>, e.g. --out ${server}.`)
      options.root ??= relative(resolve(parsed.out), dir).split(sep).join('/') || '.'
    } else if (needs === 'server-path') options.root ??= dir
    // A bad value names the flag that sets the option (`--flavor`), not the option's key.
    const flagOf = new Map(Object.entries(entry.flags).map(([flag, def]) => [def.option, `--${flag}`]))
    const resolved = entry.resolveOptions(options, (key) => flagOf.get(key) ?? `\`${key}\``)
    const several = entry.files?.(manifest, resolved)
    if (several) {
      const names = Object.keys(several.files)
      if (parsed.out === undefined)
        throw userError(
          'cli',
          `${server} --form ${String(options.form)} writes ${names.length} files (${names.join(', ')}): name the folder with --out <folder>.`,
        )
      for (const [name, text] of Object.entries(several.files)) await emit(text, join(parsed.out, name))
      for (const [name, text] of Object.entries(several.siteFiles ?? {}))
        await emit(await mergeLines(join(dir, name), text), join(dir, name))
    } else await emit(entry.generate(manifest, resolved), parsed.out)
    for (const companion of entry.companions) {
      const path = value(companion.flag)
      if (path !== undefined) await emit(companion.generate(manifest, resolved), path)
    }
  },
})

async function emit(text: string, path: string | undefined): Promise<void> {
  if (path === undefined) {
    process.stdout.write(text)
    return
  }
  const out = resolve(path)
  await mkdir(dirname(out), { recursive: true })
  await writeFileAtomically(out, text)
  process.stderr.write(`wrote ${out}\n`)
}

/** A file the user may have written too (`.assetsignore`): keep their lines, add ours that are missing. */
async function mergeLines(path: string, text: string): Promise<string> {
  const existing = await readFile(path, 'utf8').catch(() => undefined)
  if (existing === undefined || existing === text || existing.startsWith(text.split('\n')[0]!)) return text
  const have = new Set(existing.split('\n').map((line) => line.trim()))
  const missing = text.split('\n').filter((line) => line !== '' && !line.startsWith('#') && !have.has(line))
  return missing.length === 0 ? existing : `${existing.replace(/\n?$/, '\n')}${missing.join('\n')}\n`
}
