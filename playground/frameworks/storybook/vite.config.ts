import preencode from '@preencode/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The project's Vite config, which `storybook build` (react-vite) builds with: preencode() last
// in `plugins`, as the README says.
export default defineConfig({
  plugins: [react(), preencode()],
})
