import { dirname, resolve } from 'node:path'
import { type BuildRunner, createBuildRunner, isPreencodeError, wantsColor } from '@preencode/core'
import { serverConfigWriter } from '@preencode/server-config'
import type { Plugin } from 'rollup'
import { type PreencodeRollupOptions, resolvePreencodeRollupOptions } from './options.js'

/**
 * Pre-compresses every directory a Rollup build wrote (gzip, brotli and zstd beside each file),
 * in `closeBundle`, after every other plugin has written. Rollup's CLI calls `closeBundle` after
 * each build (watch mode included); JavaScript API users must call `bundle.close()`. The work
 * itself is core's build runner, shared with the Vite plugin.
 */
export function preencode(options: PreencodeRollupOptions = {}): Plugin {
  let runner: BuildRunner | undefined
  const root = process.cwd()
  /** Directories written since the last closeBundle; emptied there, when they are compressed. */
  let outDirs = new Set<string>()

  return {
    name: 'preencode:rollup',

    buildStart() {
      if (runner) return
      try {
        const resolved = resolvePreencodeRollupOptions(options, root)
        runner = createBuildRunner({
          options: resolved,
          root,
          writeServerConfigs: serverConfigWriter(resolved.serverConfigs),
        })
      } catch (error) {
        if (isPreencodeError(error) && error.isUserError) this.error(error.message)
        throw error
      }
    },

    writeBundle(outputOptions) {
      const dir = outputOptions.dir ?? (outputOptions.file ? dirname(outputOptions.file) : undefined)
      if (dir) outDirs.add(resolve(root, dir))
    },

    closeBundle: {
      // Last, and alone: Rollup runs closeBundle hooks in parallel unless told otherwise, and a
      // plugin writing files there must finish before we read them.
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        const dirs = [...outDirs]
        outDirs = new Set()
        if (error || !runner) return
        try {
          await runner.run({
            dirs,
            watch: this.meta.watchMode,
            logger: {
              info: (message) => this.info(message),
              warn: (message) => this.warn(message),
              // Rollup's only error channel throws; in watch mode the runner must not.
              error: (message) => this.warn(message),
            },
            // Rollup's CLI prints its log to stderr.
            color: wantsColor(process.stderr),
          })
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },
  }
}
