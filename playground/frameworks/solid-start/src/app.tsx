// @refresh reload
import { MetaProvider, Title } from '@solidjs/meta'
import { Router } from '@solidjs/router'
import { FileRoutes } from '@solidjs/start/router'
import { createSignal, onMount, Suspense } from 'solid-js'
import '../../shared/site.css'

function ScriptStatus() {
  const [status, setStatus] = createSignal('script not run')
  onMount(() => setStatus(`script ran on ${location.pathname}`))
  return <p id="script-status">{status()}</p>
}

export default function App() {
  return (
    <Router
      root={(props) => (
        <MetaProvider>
          <Title>preencode fixture: SolidStart</Title>
          <nav>
            <a href="/">Index</a> · <a href="/about">About</a>
          </nav>
          <main>
            <Suspense>{props.children}</Suspense>
          </main>
          <ScriptStatus />
        </MetaProvider>
      )}
    >
      <FileRoutes />
    </Router>
  )
}
