// What not to do, kept to test the warning: the plain Vite plugin inside VitePress runs after
// Vite's bundles, before VitePress renders the pages. It must say so and name @preencode/vitepress.

import preencode from '@preencode/vite'
import { defineConfig } from 'vitepress'

export default defineConfig({
  srcDir: '..',
  srcExclude: ['plain-vite/**', 'node_modules/**'],
  outDir: '../dist-plain-vite',
  vite: { plugins: [preencode()] },
})
