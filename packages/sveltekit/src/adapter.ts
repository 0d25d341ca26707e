import { dirname, resolve } from 'node:path'
import { userError } from '@preencode/core'
import { preencodeMessage } from '@preencode/core/internal'
import { createSiteRunner } from '@preencode/server-config'
import type { Adapter, Builder } from '@sveltejs/kit'
import type { PreencodeSvelteKitOptions } from './options.js'

/**
 * Wraps a SvelteKit adapter (`preencode(adapter())`): once the adapter has written the site,
 * compresses every folder it wrote browser files to — `writeClient` (the client assets),
 * `writePrerendered` (the prerendered pages) and `generateFallback` (the SPA fallback page) —
 * so the variants hold the final bytes. Server output (`writeServer`) is left alone. The work
 * is core's build runner, shared with the Vite and Rollup plugins.
 */
export function preencode(adapter: Adapter, options: PreencodeSvelteKitOptions = {}): Adapter {
  if (adapter === null || typeof adapter !== 'object' || typeof adapter.adapt !== 'function') {
    throw userError(
      'sveltekit',
      'preencode(adapter) takes the adapter itself, e.g. `adapter: preencode(adapter())` with adapter from @sveltejs/adapter-static.',
    )
  }
  // SvelteKit runs from the project root; relative paths (cache, serverConfigs) are from there.
  const runner = createSiteRunner(options, process.cwd(), 'sveltekit')
  return {
    ...adapter,
    async adapt(builder) {
      const written = new Set<string>()
      let pagesDir: string | undefined
      let skippedPrecompress = false
      // Inherits everything from the real builder; only the calls that name an output folder are
      // watched. `compress` is the adapter's own gzip/brotli (`precompress: true`): preencode
      // writes those and zstd with a manifest, and two writers of `.br` files would fight.
      const recording: Builder = Object.assign(Object.create(builder) as Builder, {
        writeClient: (dest: string) => {
          written.add(resolve(dest))
          return builder.writeClient(dest)
        },
        writePrerendered: (dest: string) => {
          pagesDir = resolve(dest)
          written.add(pagesDir)
          return builder.writePrerendered(dest)
        },
        generateFallback: (dest: string) => {
          written.add(dirname(resolve(dest)))
          return builder.generateFallback(dest)
        },
        compress: async () => {
          skippedPrecompress = true
          return []
        },
      })
      await adapter.adapt(recording)
      if (skippedPrecompress)
        builder.log.warn(
          preencodeMessage(
            `${adapter.name}'s own \`precompress\` was skipped: preencode writes gzip, brotli and zstd. Remove \`precompress\` from the adapter's options.`,
          ),
        )
      if (written.size === 0) {
        builder.log.warn(
          preencodeMessage(
            `${adapter.name} wrote no client or prerendered files through the builder: nothing was compressed.`,
          ),
        )
        return
      }
      // The pages folder is the site the server configs describe (adapter-static: `pages`).
      const siteDir = pagesDir ?? [...written][0]
      await runner.run([...written], siteDir, builder.log)
    },
  }
}
