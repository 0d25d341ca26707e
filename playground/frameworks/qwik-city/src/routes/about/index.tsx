import { component$ } from '@builder.io/qwik'
import type { DocumentHead } from '@builder.io/qwik-city'

export default component$(() => (
  <>
    <h1>About</h1>
    <p>A second prerendered page: the static adapter writes it into dist/ in a second vite build.</p>
  </>
))

export const head: DocumentHead = { title: 'About' }
