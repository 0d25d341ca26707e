// What not to do, kept to test the warning: the plain Vite plugin inside Nuxt runs after Vite's
// client build, before Nitro prerenders the pages. It must say so and name @preencode/nuxt.
// (The right way is ../nuxt/: `modules: ['@preencode/nuxt']`.)
import preencode from '@preencode/vite'

export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  vite: { plugins: [preencode()] },
  devtools: { enabled: false },
  telemetry: false,
})
