import { createFileRoute } from '@tanstack/react-router'

export const Route = createFileRoute('/')({ component: Home })

function Home() {
  return (
    <div>
      <h1>Welcome Home!</h1>
      <p>The home page of the preencode TanStack Start fixture, prerendered at build time.</p>
    </div>
  )
}
