// What not to do, kept to test the warning: the plain Vite plugin inside Astro runs after Vite's
// bundles, before Astro renders its pages. It must say so and name @preencode/astro.

import preencode from '@preencode/vite'
import { defineConfig } from 'astro/config'

export default defineConfig({
  outDir: './dist-plain-vite',
  vite: { plugins: [preencode()] },
})
