import { useEffect, useState } from 'react'
import { Link, Outlet } from 'react-router-dom'
import type { RouteRecord } from 'vite-react-ssg'

function ScriptStatus() {
  const [status, setStatus] = useState('script not run')
  useEffect(() => setStatus(`script ran on ${location.pathname}`), [])
  return <p id="script-status">{status}</p>
}

function Layout() {
  return (
    <>
      <nav>
        <Link to="/">Home</Link> · <Link to="/about">About</Link>
      </nav>
      <main>
        <Outlet />
      </main>
      <ScriptStatus />
    </>
  )
}

const PARAGRAPHS = Array.from({ length: 24 }, (_, n) => n + 1)

function Page({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      {PARAGRAPHS.map((n) => (
        <p key={n}>
          Paragraph {n} of the {title} page, prerendered by vite-react-ssg into its own HTML file so a browser gets the
          content before any script runs; long enough that the page is over a kibibyte.
        </p>
      ))}
    </>
  )
}

export const routes: RouteRecord[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Page title="Home" /> },
      { path: 'about', element: <Page title="About" /> },
    ],
  },
]
