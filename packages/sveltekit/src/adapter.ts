import { dirname, resolve } from 'node:path'
import { compressDirectory, formatReport, outermostDirectories, userError } from '@preencode/core'
import type { Adapter, Builder } from '@sveltejs/kit'
import { resolvePreencodeSvelteKitOptions, type PreencodeSvelteKitOptions } from './options.js'

/**
 * Wraps a SvelteKit adapter (`preencode(adapter())`): once the adapter has written the site,
 * compresses every folder it wrote browser files to — `writeClient` (the client assets),
 * `writePrerendered` (the prerendered pages) and `generateFallback` (the SPA fallback page) —
 * so the variants hold the final bytes. Server output (`writeServer`) is left alone.
 */
export function preencode(adapter: Adapter, options: PreencodeSvelteKitOptions = {}): Adapter {
  if (adapter === null || typeof adapter !== 'object' || typeof adapter.adapt !== 'function') {
    throw userError('sveltekit', 'preencode(adapter) takes the adapter itself, e.g. `adapter: preencode(adapter())` with adapter from @sveltejs/adapter-static.')
  }
  const resolved = resolvePreencodeSvelteKitOptions(options, process.cwd())
  return {
    ...adapter,
    async adapt(builder) {
      const written = new Set<string>()
      let skippedPrecompress = false
      // Inherits everything from the real builder; only the calls that name an output folder are
      // watched. `compress` is the adapter's own gzip/brotli (`precompress: true`): preencode
      // writes those and zstd with a manifest, and two writers of `.br` files would fight.
      const recording: Builder = Object.assign(Object.create(builder) as Builder, {
        writeClient: (dest: string) => { written.add(resolve(dest)); return builder.writeClient(dest) },
        writePrerendered: (dest: string) => { written.add(resolve(dest)); return builder.writePrerendered(dest) },
        generateFallback: (dest: string) => { written.add(dirname(resolve(dest))); return builder.generateFallback(dest) },
        compress: async () => { skippedPrecompress = true; return [] },
      })
      await adapter.adapt(recording)
      if (skippedPrecompress) builder.log.warn(`[preencode] ${adapter.name}'s own \`precompress\` was skipped: preencode writes gzip, brotli and zstd. Remove \`precompress\` from the adapter's options.`)
      const dirs = outermostDirectories([...written])
      if (dirs.length === 0) {
        builder.log.warn(`[preencode] ${adapter.name} wrote no client or prerendered files through the builder: nothing was compressed.`)
        return
      }
      for (const dir of dirs) {
        const { report } = await compressDirectory(dir, resolved.compressOptions, {
          logger: {
            info: (message) => { if (resolved.report === true) builder.log.info(message) },
            warn: (message) => builder.log.warn(message),
          },
        })
        if (resolved.report === 'json') builder.log(JSON.stringify(report))
        else if (resolved.report) builder.log(`${dir}\n${formatReport(report, { color: wantsColor() })}`)
      }
    },
  }
}

function wantsColor(): boolean {
  return process.stdout.isTTY === true && !process.env.CI && !process.env.NO_COLOR
}
