import './style.css'
import { products } from 'virtual:catalog'
import { EXPECTED, mark, showWhenReady } from './markers.js'

mark('main')

const tbody = /** @type {HTMLTableSectionElement} */ (document.querySelector('#catalogue tbody'))
const filter = /** @type {HTMLInputElement} */ (document.getElementById('filter'))
const money = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' })

/** @param {string} query */
function render(query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const rows = products
    .filter((p) => words.every((w) => p.name.toLowerCase().includes(w) || p.category.includes(w)))
    .slice(0, 50)
  tbody.replaceChildren(
    ...rows.map((p) => {
      const tr = document.createElement('tr')
      for (const text of [p.sku, p.name, p.category, money.format(p.price), `${p.rating} ★`]) {
        const td = document.createElement('td')
        td.textContent = text
        tr.append(td)
      }
      tr.title = p.description
      return tr
    }),
  )
}

filter.addEventListener('input', () => render(filter.value))
render('')

// A second chunk, loaded on demand.
import('./lazy.js').then(({ summarise }) => {
  const totals = document.getElementById('totals')
  if (totals) totals.textContent = summarise(products)
  showWhenReady(EXPECTED.index)
})

// A web worker, bundled as its own file: it answers with its marker and a computed statistic.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
worker.addEventListener('message', (event) => {
  if (event.data?.marker) mark(event.data.marker)
  showWhenReady(EXPECTED.index)
  worker.terminate()
})
worker.postMessage(products.map((p) => p.price))
