import preencode from '@preencode/vite'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

// vite-ssg's own template (`vite-ssg build`: client build, SSR build, then every route rendered
// into dist/), with preencode() last in `plugins` as the README says.
export default defineConfig({
  plugins: [vue(), preencode()],
})
