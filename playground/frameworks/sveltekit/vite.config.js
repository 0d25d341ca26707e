import { preencode } from '@preencode/sveltekit'
import adapter from '@sveltejs/adapter-static'
import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    sveltekit({
      // adapter-static writes build/ (client assets + prerendered pages); preencode compresses it after.
      adapter: preencode(adapter({ fallback: '200.html' }), {
        serverConfigs: [{ server: 'apache', path: 'build/.htaccess' }],
      }),
      // Files rather than inline tags, so the fixture has a stylesheet to compress.
      inlineStyleThreshold: 0,
    }),
  ],
})
