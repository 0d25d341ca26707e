// A module worker: runs in its own chunk, reports its marker back to the page.
self.addEventListener('message', (event) => {
  const prices = /** @type {number[]} */ (event.data)
  const sorted = [...prices].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  self.postMessage({ marker: 'worker', median })
})
