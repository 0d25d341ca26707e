import { fileURLToPath } from 'node:url'

export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  // Nitro's compiled hook, after the prerender pass and the final build wrote .output/public.
  modules: ['@preencode/nuxt'],
  preencode: { serverConfigs: [{ server: 'apache', path: '.output/public/.htaccess' }] },
  // One stylesheet shared by the framework fixtures (playground/frameworks/shared).
  css: [fileURLToPath(new URL('../shared/site.css', import.meta.url))],
  devtools: { enabled: false },
  telemetry: false,
})
