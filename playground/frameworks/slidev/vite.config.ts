import preencode from '@preencode/vite'
import { defineConfig } from 'vite'

// Slidev reads the deck's vite.config.ts: preencode() in `plugins`, as the README says.
export default defineConfig({
  plugins: [preencode()],
})
