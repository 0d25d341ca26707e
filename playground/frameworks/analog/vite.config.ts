import analog from '@analogjs/platform'
import preencode from '@preencode/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  build: { target: ['es2020'] },
  resolve: { mainFields: ['module'] },
  plugins: [
    // Static site: Analog's Nitro step prerenders these routes into dist/analog/public.
    analog({ static: true, prerender: { routes: ['/', '/about'] } }),
    preencode(),
  ],
})
