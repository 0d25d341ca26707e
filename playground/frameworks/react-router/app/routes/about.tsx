export function meta() {
  return [{ title: 'About: preencode fixture' }]
}

export default function About() {
  return (
    <div>
      <h1>About</h1>
      <p>A second page: React Router writes its HTML into build/client after Vite's environments are built.</p>
    </div>
  )
}
