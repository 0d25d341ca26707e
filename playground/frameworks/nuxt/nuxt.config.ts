export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  // Nitro's compiled hook, after the prerender pass and the final build wrote .output/public.
  modules: ['@preencode/nuxt'],
  preencode: { serverConfigs: [{ server: 'apache', path: '.output/public/.htaccess' }] },
  css: ['~/assets/site.css'],
  devtools: { enabled: false },
  telemetry: false,
})
