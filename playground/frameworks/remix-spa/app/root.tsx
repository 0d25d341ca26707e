import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useEffect, useState } from 'react'
import siteCss from '../../shared/site.css?url'

export const links = () => [{ rel: 'stylesheet', href: siteCss }]

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

function ScriptStatus() {
  const [status, setStatus] = useState('script not run')
  useEffect(() => setStatus(`script ran on ${location.pathname}`), [])
  return <p id="script-status">{status}</p>
}

export default function App() {
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

export function HydrateFallback() {
  return <p>Loading…</p>
}
