import { dirname, resolve } from 'node:path'
import { compressDirectory, enforceBudgets, formatReport, isPreencodeError, outermostDirectories, type CompressReport } from '@preencode/core'
import type { Plugin, PluginContext } from 'rollup'
import { resolvePreencodeRollupOptions, type PreencodeRollupOptions } from './options.js'

/**
 * Pre-compresses every directory a Rollup build wrote (gzip, brotli and zstd beside each file),
 * in `closeBundle`, after every other plugin has written. Rollup's CLI calls `closeBundle` after
 * each build (watch mode included); JavaScript API users must call `bundle.close()`.
 */
export function preencode(options: PreencodeRollupOptions = {}): Plugin {
  let resolved: ReturnType<typeof resolvePreencodeRollupOptions> | undefined
  /** Directories written since the last closeBundle; emptied there, when they are compressed. */
  let outDirs = new Set<string>()
  /** Runs one at a time: a watch rebuild may close while the previous compression still runs. */
  let queue: Promise<void> = Promise.resolve()

  return {
    name: 'preencode',

    buildStart() {
      try {
        resolved ??= resolvePreencodeRollupOptions(options)
      } catch (error) {
        if (isPreencodeError(error) && error.isUserError) this.error(error.message)
        throw error
      }
    },

    writeBundle(outputOptions) {
      const dir = outputOptions.dir ?? (outputOptions.file ? dirname(outputOptions.file) : undefined)
      if (dir) outDirs.add(resolve(dir))
    },

    closeBundle: {
      // Last, and alone: Rollup runs closeBundle hooks in parallel unless told otherwise, and a
      // plugin writing files there must finish before we read them.
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        const dirs = outermostDirectories([...outDirs])
        outDirs = new Set()
        if (error || !resolved || dirs.length === 0) return
        const settings = resolved
        const run = queue.then(() => compressAll(this, dirs, settings))
        queue = run.catch(() => {})
        try {
          await run
        } catch (failure) {
          if (isPreencodeError(failure) && failure.isUserError) this.error(failure.message)
          throw failure
        }
      },
    },
  }
}

async function compressAll(
  context: PluginContext,
  dirs: string[],
  settings: ReturnType<typeof resolvePreencodeRollupOptions>,
): Promise<void> {
  for (const dir of dirs) {
    const { report } = await compressDirectory(dir, settings.compressOptions, {
      logger: {
        info: (message) => { if (settings.report === true) context.info(message) },
        warn: (message) => context.warn(message),
      },
    })
    printReport(context, report, settings.report)
    // A file over a size budget fails the build (the table is in the message).
    await enforceBudgets(report, 'rollup')
  }
}

function printReport(context: PluginContext, report: CompressReport, mode: boolean | 'json'): void {
  if (mode === false) return
  if (mode === 'json') context.info(JSON.stringify(report))
  else context.info(`${report.dir}\n${formatReport(report, { color: process.stderr.isTTY === true && !process.env.CI })}`)
}


