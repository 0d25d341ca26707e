import { useEffect, useState } from 'react'
import '../../shared/site.css'

/** Says whether the story's script ran (the e2e opens the story's iframe in Chromium). */
export function Status({ icons }: { icons: number }) {
  const [status, setStatus] = useState('script not run')
  useEffect(() => setStatus(`script ran on ${location.pathname}`), [])
  return (
    <main>
      <h1>{icons} icons</h1>
      <img src="/icons/icon-1.svg" alt="the first icon" width={48} height={48} />
      <p id="script-status">{status}</p>
    </main>
  )
}
