import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import preencode from '@preencode/vite'
import { defineConfig, type Plugin } from 'vite'
import { catalogSource } from './scripts/make-catalog.mjs'

const CATALOG_ID = 'virtual:catalog'

/**
 * The catalogue (`import { products } from 'virtual:catalog'`, ~340 KB of seeded product data)
 * is generated when the playground is built instead of being committed.
 */
export function catalog(): Plugin {
  return {
    name: 'playground:catalog',
    resolveId(id) {
      return id === CATALOG_ID ? `\0${CATALOG_ID}` : undefined
    },
    load(id) {
      return id === `\0${CATALOG_ID}` ? catalogSource() : undefined
    },
  }
}

/**
 * Stands for the plugins that write or rewrite files after the bundle is written (prerenderers,
 * sitemap and license generators): a placeholder in `writeBundle`, the final `late.json` in its
 * own `closeBundle`, after a delay. preencode must compress the final bytes, not the placeholder.
 * It is `enforce: 'post'` like preencode and listed after it on purpose: the ordering must come
 * from preencode's `closeBundle: { order: 'post' }`, not from the plugin array.
 */
export function lateWriter(): Plugin {
  let outDir = ''
  return {
    name: 'playground:late-writer',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async writeBundle() {
      await writeFile(join(outDir, 'late.json'), `${JSON.stringify({ stage: 'writeBundle', placeholder: true })}\n`)
    },
    async closeBundle() {
      await new Promise((done) => setTimeout(done, 200))
      const entries = Array.from({ length: 40 }, (_, i) => ({
        path: `/generated/page-${i}/`,
        title: `Generated page ${i}`,
        changefreq: i % 3 === 0 ? 'daily' : 'weekly',
      }))
      await mkdir(outDir, { recursive: true })
      await writeFile(
        join(outDir, 'late.json'),
        `${JSON.stringify({ stage: 'closeBundle', final: true, entries }, null, 2)}\n`,
      )
    },
  }
}

export default defineConfig({
  build: {
    rolldownOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        about: resolve(import.meta.dirname, 'about/index.html'),
        sub: resolve(import.meta.dirname, 'sub/index.html'),
      },
    },
  },
  plugins: [catalog(), preencode(), lateWriter()],
})
