import { component$, Slot, useSignal, useVisibleTask$ } from '@builder.io/qwik'
import { Link } from '@builder.io/qwik-city'

export default component$(() => {
  const status = useSignal('script not run')
  // Runs in the browser once the element is visible (Qwik resumes, no hydration).
  // biome-ignore lint/correctness/noQwikUseVisibleTask: the e2e test needs proof that the page's script ran.
  useVisibleTask$(() => {
    status.value = `script ran on ${location.pathname}`
  })
  return (
    <>
      <nav>
        <Link href="/">Home</Link> · <Link href="/about/">About</Link>
      </nav>
      <main>
        <Slot />
      </main>
      <p id="script-status">{status.value}</p>
    </>
  )
})
