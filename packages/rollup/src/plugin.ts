import { realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { type BuildRunner, createBuildRunner, isPreencodeError, wantsColor } from '@preencode/core'
import { guardFolder, preencodeMessage } from '@preencode/core/internal'
import { serverConfigWriter } from '@preencode/server-config'
import type { Plugin, PluginContext } from 'rollup'
import { type PreencodeRollupOptions, resolvePreencodeRollupOptions } from './options.js'

/**
 * Pre-compresses every directory a Rollup build wrote (gzip, brotli and zstd beside each file),
 * in `closeBundle`, after every other plugin has written. Rollup's CLI calls `closeBundle` after
 * each build (watch mode included); JavaScript API users must call `bundle.close()`. The work
 * itself is core's build runner, shared with the Vite plugin.
 *
 * Whatever writes last, the output stays true: a plugin whose `closeBundle` runs after ours, or a
 * script that writes into the output after `bundle.close()`, would leave variants beside changed
 * files. So, as the Vite plugin does, every folder a build (not watch mode) compressed is looked
 * at once more as the process exits (core's `guardFolder`), compressed again if out of date, and
 * one warning line names the late files. In watch mode every rebuild's closeBundle compresses
 * again, and a process that watches ends by a signal, which runs no `exit` listener: no check.
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
        const watch = this.meta.watchMode
        const warn = warner(this)
        try {
          const results = await runner.run({
            dirs,
            watch,
            logger: {
              info: (message) => this.info(message),
              warn,
              // Rollup's only error channel throws; in watch mode the runner must not.
              error: warn,
            },
            // Rollup's CLI prints its log to stderr.
            color: wantsColor(process.stderr),
            // In a build, the look at exit compresses them and names them in its one line.
            warnLate: watch,
          })
          if (!watch)
            for (const { report } of results)
              guardFolder({ dir: report.dir, root, found: report.late, warn, atExit: true })
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },
  }
}

/**
 * Where a warning goes: Rollup's log, except under Rollup's CLI, which prints plugin warnings in a
 * batch before it closes the bundle (Rollup 4's `bin/rollup`), so a warning from `closeBundle` or
 * from the process's exit would never show there: stderr then, with the `[preencode]` prefix.
 */
function warner(context: PluginContext): (message: string) => void {
  return (message) => {
    if (!underRollupCli())
      try {
        context.warn(message)
        return
      } catch {
        // A context Rollup no longer takes warnings from: stderr below.
      }
    process.stderr.write(`${message.startsWith('[preencode]') ? message : preencodeMessage(message)}\n`)
  }
}

/** The process is Rollup's command line (`rollup -c`: `node …/rollup/dist/bin/rollup`). */
function underRollupCli(): boolean {
  const main = process.argv[1]
  if (main === undefined) return false
  try {
    return /[\\/]rollup[\\/]dist[\\/]bin[\\/]rollup$/.test(realpathSync(main))
  } catch {
    return false
  }
}
