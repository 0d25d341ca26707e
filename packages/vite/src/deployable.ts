/**
 * Where the folder that gets deployed is, as the framework that writes it says: Nitro's build
 * info, Qwik's plugin API, or the client environments' `outDir`.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import type { Plugin, ResolvedConfig, ViteBuilder } from 'vite'
import type { PreencodeEnvironmentInfo } from './options.js'

/**
 * Nitro's public output folder of the build that just ran (`.output/public`, Analog's
 * `dist/analog/public`, a preset's own). Nitro records its output after every build in
 * `<output>/nitro.json` (what `nitro preview` and `nitro deploy` read): Nitro 3 names the public
 * folder there and points at the output from `node_modules/.nitro/last-build.json`; Nitro 2
 * (Analog 2) writes neither, so its output folders are tried: `.output`, and Analog's
 * `dist/analog` (its source: `dist/<app>/analog` under the workspace, the current directory). Build info
 * older than `since` (an earlier build) does not count. Undefined when none is found.
 */
export async function nitroPublicDir(root: string, since: number): Promise<string | undefined> {
  const lastBuild = join(root, 'node_modules/.nitro/last-build.json')
  const pointer = await readJson<{ outputDir?: unknown }>(lastBuild)
  const outputs = [
    ...(typeof pointer?.outputDir === 'string' ? [resolve(lastBuild, pointer.outputDir)] : []),
    join(root, '.output'),
    join(root, 'dist/analog'),
    join(process.cwd(), 'dist', relative(process.cwd(), root), 'analog'),
  ]
  for (const outputDir of outputs) {
    const infoPath = join(outputDir, 'nitro.json')
    const written = await stat(infoPath).catch(() => undefined)
    // A second of slack: file times come from a coarser clock than Date.now().
    if (!written || written.mtimeMs < since - 1000) continue
    const info = await readJson<{ publicDir?: unknown }>(infoPath)
    // Nitro's default where the build info does not say: `{{ output.dir }}/public`.
    return resolve(outputDir, typeof info?.publicDir === 'string' ? info.publicDir : 'public')
  }
  return undefined
}

/** Where Qwik City's adapters write the pages: the Qwik plugin's own answer (`api.getClientPublicOutDir()`). */
export function qwikPublicDir(config: ResolvedConfig): string | undefined {
  const qwik = config.plugins.find((plugin) => plugin.name === 'vite-plugin-qwik') as
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
