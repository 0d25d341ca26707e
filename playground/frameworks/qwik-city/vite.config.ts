import { qwikVite } from '@builder.io/qwik/optimizer'
import { qwikCity } from '@builder.io/qwik-city/vite'
import preencode from '@preencode/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [qwikCity(), qwikVite(), preencode()],
})
