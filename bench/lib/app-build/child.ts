// One `vite build` of bench/app in its own process, so that `maxRSS` is this build's peak and
// nothing else's. Spawned by runAppBuild (index.ts) with a JSON spec as argv[2]; writes its result as
// JSON to `spec.resultFile` (not stdout: vite-plugin-compression2 patches process.stdout.write).
import { writeFile } from 'node:fs/promises'
import { constants } from 'node:zlib'
import type { PluginOption } from 'vite'
import { type BuildOutcome, type BuildSpec, PEER_LEVELS } from './spec.ts'

async function plugins(spec: BuildSpec): Promise<PluginOption[]> {
  if (spec.tool === 'baseline') return []
  if (spec.tool === 'peer') {
    const { compression, defineAlgorithm } = await import('vite-plugin-compression2')
    return [
      compression({
        algorithms: [
          defineAlgorithm('gzip', { level: PEER_LEVELS.gzip }),
          defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: PEER_LEVELS.brotli } }),
          defineAlgorithm('zstandard', { params: { [constants.ZSTD_c_compressionLevel]: PEER_LEVELS.zstd } }),
        ],
      }),
    ]
  }
  const { preencode } = await import('@preencode/vite')
  return [preencode({ formats: ['gzip', 'brotli', 'zstd'], cache: spec.cacheDir })]
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]!) as BuildSpec
  let outcome: BuildOutcome
  const started = performance.now()
  try {
    const { build } = await import('vite')
    await build({
      root: spec.appRoot,
      configFile: false,
      logLevel: 'warn',
      plugins: await plugins(spec),
      build: {
        outDir: spec.outDir,
        emptyOutDir: true,
        // Vite's own gzip-size report would compress every chunk once more, in every configuration.
        reportCompressedSize: false,
        chunkSizeWarningLimit: 100_000,
        rolldownOptions: { input: spec.entries },
      },
    })
    const { user, system } = process.cpuUsage()
    outcome = {
      buildMs: performance.now() - started,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      cpuMs: (user + system) / 1000,
    }
  } catch (error) {
    outcome = {
      buildMs: Number.NaN,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      error: String((error as Error).stack ?? error),
    }
  }
  await writeFile(spec.resultFile, JSON.stringify(outcome))
}

await main()
