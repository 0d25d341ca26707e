// What not to do, kept to test the warning: the plain Vite plugin inside SvelteKit runs after
// Vite's bundles, before the adapter writes the site. It must say so and name @preencode/sveltekit.

import preencode from '@preencode/vite'
import adapter from '@sveltejs/adapter-static'
import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [sveltekit({ adapter: adapter({ pages: 'build-plain-vite', fallback: '200.html' }) }), preencode()],
})
