import preencode from '@preencode/vite'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

// Remix's SPA template (`ssr: false`: one build/client/index.html shell, written by the server
// build), with preencode() last in `plugins` as the README says.
export default defineConfig({
  plugins: [remix({ ssr: false }), preencode()],
})
