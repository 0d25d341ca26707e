// Every chunk records that it ran on window.__preencodeMarkers; the end-to-end tests read it
// and wait for the visible "All scripts ran" text.
export const EXPECTED = { index: ['main', 'lazy', 'worker'], about: ['about'] }

/** @param {string} name */
export function mark(name) {
  const markers = (window.__preencodeMarkers ??= [])
  if (!markers.includes(name)) markers.push(name)
}

/** Shows the confirmation once every expected marker is present. @param {string[]} expected */
export function showWhenReady(expected) {
  const markers = window.__preencodeMarkers ?? []
  if (!expected.every((m) => markers.includes(m))) return
  const status = document.getElementById('status')
  if (!status) return
  status.textContent = `All scripts ran: ${expected.join(', ')}`
  status.dataset.ready = 'true'
}
