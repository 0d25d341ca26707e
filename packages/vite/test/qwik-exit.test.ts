// Qwik City's adapters end the process shortly after their SSG (an unref'd process.exit timer);
// the pages they wrote are compressed after that. A real build in a child process, where the
// adapter asks for the exit as soon as it has written the pages: every page still gets its variants.
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { expectSiteCompressed, page, perTestCleanup } from './helpers.js'

const { app } = perTestCleanup()
const run = promisify(execFile)
const THRESHOLD = 200

it("compresses every page Qwik City's static adapter writes, though the adapter ends the process right after", async () => {
  const root = await app()
  const dist = join(root, 'dist')
  const pages = Array.from({ length: 40 }, (_, i) => `p${i}/index.html`)
  const script = join(root, 'build.mjs')
  await writeFile(
    script,
    `import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { build } from ${JSON.stringify(import.meta.resolve('vite'))}
import preencode from ${JSON.stringify(import.meta.resolve('@preencode/vite'))}
const root = ${JSON.stringify(root)}
const dist = join(root, 'dist')
const options = { threshold: ${THRESHOLD}, report: false, cache: join(root, '.test-cache') }
await build({ root, configFile: false, logLevel: 'silent', plugins: [preencode(options)] })
const qwik = { name: 'vite-plugin-qwik', api: { getClientPublicOutDir: () => dist } }
const adapter = {
  name: 'vite-plugin-qwik-city-static-generate',
  enforce: 'post',
  closeBundle: {
    sequential: true,
    async handler() {
      for (const [path, text] of ${JSON.stringify(pages.map((path) => [path, page(path)]))}) {
        await mkdir(dirname(join(dist, path)), { recursive: true })
        await writeFile(join(dist, path), text)
      }
      // As the adapters do (5 s there): end a build that would hang, if it still runs.
      setTimeout(() => process.exit(0), 1).unref()
    },
  },
}
await build({
  root, configFile: false, logLevel: 'silent',
  plugins: [qwik, preencode(options), adapter],
  build: { ssr: 'src/entry-server.js', outDir: 'server' },
})
`,
  )
  await run(process.execPath, [script])
  const checked = await expectSiteCompressed(dist, THRESHOLD)
  expect(checked).toEqual(expect.arrayContaining([...pages, 'index.html', 'data.json']))
})
