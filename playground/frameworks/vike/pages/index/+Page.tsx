import { useState } from 'react'

export default function Page() {
  const [count, setCount] = useState(0)
  return (
    <>
      <h1>My Vike app</h1>
      <p>The home page of the preencode Vike fixture, prerendered at build time.</p>
      <button type="button" onClick={() => setCount((n) => n + 1)}>
        Counter {count}
      </button>
    </>
  )
}
