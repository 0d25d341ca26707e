// Writes public/icons/icon-1.svg … icon-800.svg (about 1.3 KB each, so each gets variants) before
// `storybook build`: a project with many static files, which Storybook (`staticDirs`) and Vite
// (`publicDir`) both copy into storybook-static/. Generated, not committed.
import { mkdir, rm, writeFile } from 'node:fs/promises'

export const ICONS = 800
const dir = new URL('../public/icons/', import.meta.url)
await rm(dir, { recursive: true, force: true })
await mkdir(dir, { recursive: true })
for (let n = 1; n <= ICONS; n++) {
  const paths = Array.from({ length: 20 }, (_, i) => {
    const x = (n * 7 + i * 13) % 48
    const y = (n * 11 + i * 5) % 48
    return `  <path d="M${x} ${y}L${(x + 17) % 48} ${(y + 29) % 48}L${(x + 31) % 48} ${(y + 7) % 48}Z" fill="hsl(${(n * 37 + i * 29) % 360} 60% 50%)"/>`
  })
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">\n  <title>icon ${n}</title>\n${paths.join('\n')}\n</svg>\n`
  await writeFile(new URL(`icon-${n}.svg`, dir), svg)
}
