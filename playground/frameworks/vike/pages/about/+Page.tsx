export default function Page() {
  return (
    <>
      <h1>About</h1>
      <p>A second prerendered page: Vike writes its HTML into dist/client after Vite's environments are built.</p>
    </>
  )
}
