import '../../shared/site.css'
import { setupCounter } from './counter.ts'

document.querySelector<HTMLDivElement>('#app')!.innerHTML = `
  <div>
    <img src="/nitro.svg" class="logo" alt="Nitro logo" width="96" height="96" />
    <h1>Vite + Nitro</h1>
    <p>The home page of the preencode Nitro fixture: Vite builds it, Nitro prerenders it into .output/public.</p>
    <div class="card"><button id="counter" type="button"></button></div>
    <p>Check out <a href="/api/hello">/api/hello</a> to see the Nitro API in action.</p>
  </div>
`

setupCounter(document.querySelector<HTMLButtonElement>('#counter')!)
document.querySelector('#script-status')!.textContent = `script ran on ${location.pathname}`
