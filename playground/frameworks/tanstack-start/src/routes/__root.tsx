/// <reference types="vite/client" />
import { createRootRoute, HeadContent, Link, Outlet, Scripts } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import appCss from '../../../shared/site.css?url'

export const Route = createRootRoute({
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { title: 'preencode fixture: TanStack Start' },
    ],
    links: [{ rel: 'stylesheet', href: appCss }],
  }),
  component: RootComponent,
})

function RootComponent() {
  return (
    <RootDocument>
      <Outlet />
    </RootDocument>
  )
}

function ScriptStatus() {
  const [status, setStatus] = useState('script not run')
  useEffect(() => setStatus(`script ran on ${location.pathname}`), [])
  return <p id="script-status">{status}</p>
}

function RootDocument({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        <nav>
          <Link to="/">Home</Link> · <Link to="/about">About</Link>
        </nav>
        <main>{children}</main>
        <ScriptStatus />
        <Scripts />
      </body>
    </html>
  )
}
