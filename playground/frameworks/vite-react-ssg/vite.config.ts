import preencode from '@preencode/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// vite-react-ssg's own template (`vite-react-ssg build`: client build, SSR build, then every
// route rendered into dist/), with preencode() last in `plugins` as the README says.
export default defineConfig({
  plugins: [react(), preencode()],
})
