import { defineNuxtModule, useLogger } from '@nuxt/kit'
// Nuxt's `nitro:init` hook and `nitro` option are declared by this package's type augmentation.
import type {} from '@nuxt/nitro-server'
import type { NuxtModule } from '@nuxt/schema'
import { createSiteRunner } from '@preencode/server-config'
import type { Nitro } from 'nitropack'
import type { PreencodeNuxtOptions } from './options.js'

/** The module's name (`meta.name`), as Nuxt lists it and tags its log lines. */
export const MODULE_NAME = '@preencode/nuxt'

/**
 * Pre-compresses Nitro's public output (`.output/public`: prerendered pages, client bundles,
 * `public/` files) once it is complete: in Nitro's `compiled` hook, which runs after the
 * prerender pass and the final build have both written there. Dev and `nuxt prepare` are left
 * alone. The work is core's build runner, shared with the Vite and Rollup plugins.
 */
const module: NuxtModule<PreencodeNuxtOptions> = defineNuxtModule<PreencodeNuxtOptions>({
  meta: { name: MODULE_NAME, configKey: 'preencode' },
  defaults: {},
  setup(options, nuxt) {
    if (nuxt.options.dev || nuxt.options._prepare) return
    const logger = useLogger(MODULE_NAME)
    // Validated while Nuxt loads, so a typo fails before the build instead of after it.
    const runner = createSiteRunner(options, nuxt.options.rootDir, 'nuxt')
    if (nuxt.options.nitro.compressPublicAssets) {
      logger.warn(
        '`nitro.compressPublicAssets` also writes .gz/.br files into .output/public; preencode writes gzip, brotli and zstd with a manifest. Turn `compressPublicAssets` off.',
      )
    }
    nuxt.hook('nitro:init', (nitro: Nitro) => {
      nitro.hooks.hook('compiled', async () => {
        const dir = nitro.options.output.publicDir
        if (!nitro.options.static && runner.options.report === true) {
          logger.info(
            `server build: compressing ${dir} (client assets and prerendered pages; pages rendered on request are not files)`,
          )
        }
        await runner.run([dir], dir, logger)
      })
    })
  },
})

export default module
