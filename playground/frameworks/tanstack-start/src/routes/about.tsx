import { createFileRoute } from '@tanstack/react-router'

export const Route = createFileRoute('/about')({ component: About })

function About() {
  return (
    <div>
      <h1>About</h1>
      <p>A second prerendered page: TanStack Start writes it into dist/client after every environment is built.</p>
    </div>
  )
}
