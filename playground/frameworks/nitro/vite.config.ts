import preencode from '@preencode/vite'
import { nitro } from 'nitro/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    // Nitro serves index.html (Vite's client build) and the routes/ handlers; the build
    // prerenders these into .output/public and copies public/ there.
    nitro({ serverDir: './', prerender: { routes: ['/', '/about', '/api/hello'] } }),
    preencode(),
  ],
})
