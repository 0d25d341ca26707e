import { component$, useSignal } from '@builder.io/qwik'
import type { DocumentHead } from '@builder.io/qwik-city'

export default component$(() => {
  const count = useSignal(0)
  return (
    <>
      <h1>Hi 👋</h1>
      <p>The home page of the preencode Qwik City fixture, prerendered by the static adapter.</p>
      <button type="button" onClick$={() => count.value++}>
        Count: {count.value}
      </button>
    </>
  )
})

export const head: DocumentHead = {
  title: 'Welcome to Qwik',
  meta: [{ name: 'description', content: 'Qwik site description' }],
}
