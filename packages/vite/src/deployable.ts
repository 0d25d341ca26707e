/**
 * Where the folder that gets deployed is, as the framework that writes it says: Nitro's build
 * info, Qwik's plugin API, or the client environments' `outDir`.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Plugin, ViteBuilder } from 'vite'
import type { PreencodeEnvironmentInfo } from './options.js'

/**
 * Nitro's public output folder of the build that just ran (`.output/public`, Analog's
 * `dist/analog/public`, a preset's own). Nitro records it after every build: the file
 * `node_modules/.nitro/last-build.json` under its root names the output folder, whose
 * `nitro.json` names the public folder (what `nitro preview` and `nitro deploy` read). Build info
 * older than `since` (a previous build) does not count. Undefined when there is none.
 */
export async function nitroPublicDir(root: string, since: number): Promise<string | undefined> {
  const lastBuild = join(root, 'node_modules/.nitro/last-build.json')
  const pointer = await readJson<{ outputDir?: unknown }>(lastBuild)
  const outputDir = resolve(lastBuild, typeof pointer?.outputDir === 'string' ? pointer.outputDir : '../../../.output')
  const infoPath = join(outputDir, 'nitro.json')
  const written = await stat(infoPath).catch(() => undefined)
  // A second of slack: file times come from a coarser clock than Date.now().
  if (!written || written.mtimeMs < since - 1000) return undefined
  const info = await readJson<{ publicDir?: unknown }>(infoPath)
  // Nitro's default when the build info predates the field: `{{ output.dir }}/public`.
  return resolve(outputDir, typeof info?.publicDir === 'string' ? info.publicDir : 'public')
}

/** Where Qwik City's SSG writes the pages: the Qwik plugin's own answer (`api.getClientPublicOutDir()`). */
export function qwikPublicDir(plugins: readonly Plugin[]): string | undefined {
  const qwik = plugins.find((plugin) => plugin.name === 'vite-plugin-qwik') as
    | (Plugin & { api?: { getClientPublicOutDir?: () => string | null | undefined } })
    | undefined
  return qwik?.api?.getClientPublicOutDir?.() ?? undefined
}

/** The `outDir` of every built environment the plugin compresses (by default, those a browser consumes). */
export function builtClientDirs(
  builder: ViteBuilder,
  wanted: (environment: PreencodeEnvironmentInfo) => boolean,
): string[] {
  const dirs = Object.values(builder.environments)
    .filter((environment) => environment.isBuilt)
    .filter((environment) => wanted({ name: environment.name, consumer: environment.config.consumer }))
    .map((environment) => resolve(environment.config.root, environment.config.build.outDir))
  return [...new Set(dirs)]
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T
  } catch {
    return undefined
  }
}
