import preencode from '@preencode/vite'
import { solidStart } from '@solidjs/start/config'
import { nitro } from 'nitro/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    solidStart(),
    // Nitro builds the server and prerenders these routes into .output/public.
    nitro({ prerender: { routes: ['/', '/about'] } }),
    preencode(),
  ],
})
