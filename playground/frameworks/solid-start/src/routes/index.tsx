import { Title } from '@solidjs/meta'
import { createSignal } from 'solid-js'

export default function Home() {
  const [count, setCount] = createSignal(0)
  return (
    <>
      <Title>Hello World</Title>
      <h1>Hello world!</h1>
      <p>The home page of the preencode SolidStart fixture, prerendered by Nitro.</p>
      <button type="button" onClick={() => setCount(count() + 1)}>
        Clicks: {count()}
      </button>
    </>
  )
}
