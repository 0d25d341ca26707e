import { Title } from '@solidjs/meta'

export default function About() {
  return (
    <>
      <Title>About</Title>
      <h1>About</h1>
      <p>A second prerendered page: Nitro writes it into .output/public after Vite's client build.</p>
    </>
  )
}
