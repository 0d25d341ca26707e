export function meta() {
  return [{ title: 'preencode fixture: React Router' }, { name: 'description', content: 'Welcome to React Router!' }]
}

export default function Home() {
  return (
    <div>
      <h1>Welcome to React Router</h1>
      <p>The home page of the preencode React Router fixture.</p>
    </div>
  )
}
