import { fileURLToPath } from 'node:url'
import preencode from '@preencode/vite'
import { viteBundler } from '@vuepress/bundler-vite'
import { defineUserConfig } from 'vuepress'

// VuePress 2 with its Vite bundler, preencode() in the bundler's Vite plugins as the README says.
// A theme of three lines (the default theme pins an older VuePress): one layout with the
// page's content.
export default defineUserConfig({
  title: 'VuePress fixture',
  bundler: viteBundler({ viteOptions: { plugins: [preencode()] } }),
  theme: {
    name: 'fixture-theme',
    clientConfigFile: fileURLToPath(new URL('./theme/client.js', import.meta.url)),
  },
})
