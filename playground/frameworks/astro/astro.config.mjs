import { defineConfig } from 'astro/config'
import preencode from '@preencode/astro'

export default defineConfig({
  integrations: [preencode()],
  // Files rather than inline tags, so the fixture has a script and a stylesheet to compress.
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
})
