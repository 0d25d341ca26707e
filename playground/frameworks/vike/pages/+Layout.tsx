import '../../shared/site.css'
import { type ReactNode, useEffect, useState } from 'react'

function ScriptStatus() {
  const [status, setStatus] = useState('script not run')
  useEffect(() => setStatus(`script ran on ${location.pathname}`), [])
  return <p id="script-status">{status}</p>
}

export default function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <nav>
        <a href="/">Home</a> · <a href="/about">About</a>
      </nav>
      <main>{children}</main>
      <ScriptStatus />
    </>
  )
}
