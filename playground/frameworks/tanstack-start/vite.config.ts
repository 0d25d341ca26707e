import preencode from '@preencode/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    // Static prerendering: every page reachable from / is written to dist/client after the build.
    tanstackStart({ prerender: { enabled: true, crawlLinks: true } }),
    viteReact(),
    preencode(),
  ],
})
