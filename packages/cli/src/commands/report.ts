import { mkdir } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { reconcileManifest, renderHtmlReport, userError } from '@preencode/core'
import { writeFileAtomically } from '@preencode/core/internal'
import { defineCommand } from 'citty'
import { assertKnownFlags } from '../options/flags.js'
import { createLogger } from '../output.js'

const args = {
  dir: { type: 'positional', description: 'The compressed site (holding .preencode-manifest.json)', required: true },
  html: {
    type: 'string',
    description: 'Write the visual report (one self-contained HTML file) here',
    valueHint: 'file',
  },
  title: { type: 'string', description: "The report's title (default: the folder's name)", valueHint: 'text' },
} as const

/**
 * `preencode report <dir> --html out.html`: the site as a treemap by bytes (originals, or each
 * coding), a sortable per-file table and the totals, in one HTML file that needs no network.
 */
export const reportCommand = defineCommand({
  meta: {
    name: 'report',
    description: 'Write a visual report of a compressed site: treemap by bytes, per-file table, totals',
  },
  args,
  async run({ args: parsed, rawArgs }) {
    assertKnownFlags(rawArgs, args)
    if (parsed.html === undefined || parsed.html === '') {
      throw userError(
        'cli',
        'preencode report needs --html <file>, e.g. `preencode report dist --html preencode-report.html`.',
      )
    }
    const root = resolve(parsed.dir)
    // Brought up to date with the disk first: the report shows the files as they are.
    const { manifest } = await reconcileManifest(root, { logger: createLogger() })
    const out = resolve(parsed.html)
    if (out === root || dirname(out) === root) {
      // Inside the site it would be deployed and served to visitors.
      process.stderr.write(
        `warning: ${out} is inside the site; it will be deployed with it. Write it elsewhere to keep it private.\n`,
      )
    }
    await mkdir(dirname(out), { recursive: true })
    await writeFileAtomically(
      out,
      renderHtmlReport(manifest, { title: parsed.title ?? `preencode report: ${basename(root)}` }),
    )
    process.stderr.write(`wrote ${out} (${manifest.files.length} files)\n`)
  },
})
