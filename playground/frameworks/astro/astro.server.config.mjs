// The same site with server output (an adapter): pages are rendered on request, so only the
// client folder Astro hands to astro:build:done (dist-server/client/) is compressed.

import node from '@astrojs/node'
import preencode from '@preencode/astro'
import { defineConfig } from 'astro/config'

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  outDir: './dist-server',
  integrations: [preencode()],
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
})
