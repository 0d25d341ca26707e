import preencode from '@preencode/astro'
import { defineConfig } from 'astro/config'
import feed from './integrations/feed.mjs'

export default defineConfig({
  // Listed last: it compresses what every other integration has written. The .htaccess is for
  // Apache shared hosting; it is part of the site, so the manifest lists it too.
  integrations: [feed(), preencode({ serverConfigs: [{ server: 'apache', path: 'dist/.htaccess' }] })],
  // Files rather than inline tags, so the fixture has a script and a stylesheet to compress.
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
})
