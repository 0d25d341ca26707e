// Two builds in one process share no state (issue 38.7): a script or a tool that builds two
// projects one after the other (or one project twice) must get, for each build, what that build
// alone would get. Real `vite build`s in a child process, whose own exit is part of the check.
import { execFile } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { expectSiteCompressed, listFiles, perTestCleanup } from './helpers.js'

const { app } = perTestCleanup()
const run = promisify(execFile)
const THRESHOLD = 200

/** Runs `body` (statements that may use `build`, `createBuilder`, `preencode`, `options`) in a child; the lines naming preencode. */
async function inChild(dir: string, body: string): Promise<string[]> {
  const script = join(dir, 'two-builds.mjs')
  await writeFile(
    script,
    `import { build, createBuilder } from ${JSON.stringify(import.meta.resolve('vite'))}
import preencode from ${JSON.stringify(import.meta.resolve('@preencode/vite'))}
const options = (root) => ({ threshold: ${THRESHOLD}, report: false, cache: root + '/.test-cache' })
${body}
`,
  )
  const { stdout, stderr } = await run(process.execPath, [script])
  return `${stdout}\n${stderr}`.split('\n').filter((line) => line.includes('[preencode]'))
}

const hasVariants = async (dir: string): Promise<boolean> =>
  (await listFiles(dir)).some((path) => /\.(gz|br|zst)$/.test(path))

describe('@preencode/vite: two builds in one process', () => {
  it("a build that left its folder to a buildApp step that never came is named, though another project's app build then ran", async () => {
    const [first, second] = [await app(), await app()]
    const lines = await inChild(
      first,
      // The first: vite.build() with `builder` options (its buildApp never runs); the second: an
      // app build whose framework builds the environments in its own buildApp step.
      `await build({ root: ${JSON.stringify(first)}, configFile: false, logLevel: 'warn', builder: {}, plugins: [preencode(options(${JSON.stringify(first)}))] })
const ssg = { name: 'some-ssg', buildApp: async (builder) => { for (const environment of Object.values(builder.environments)) await builder.build(environment) } }
const builder = await createBuilder({ root: ${JSON.stringify(second)}, configFile: false, logLevel: 'warn', builder: {}, plugins: [ssg, preencode(options(${JSON.stringify(second)}))] }, null)
await builder.buildApp()`,
    )
    await expectSiteCompressed(join(second, 'dist'), THRESHOLD)
    expect(await hasVariants(join(first, 'dist'))).toBe(false)
    const waiting = lines.filter((line) => line.includes("left to Vite's buildApp step, which never ran"))
    expect(waiting).toHaveLength(1)
    expect(waiting[0]).toContain(`preencode compress dist`)
  })

  it('a framework warning is given for each project built in the process, once each', async () => {
    const [first, second] = [await app(), await app()]
    // A plugin named as Astro's: the plugin stands down and says what to use, whatever the project.
    const astro = `{ name: 'astro:build' }`
    const lines = await inChild(
      first,
      [first, first, second]
        .map(
          (root) =>
            `await build({ root: ${JSON.stringify(root)}, configFile: false, logLevel: 'warn', plugins: [${astro}, preencode(options(${JSON.stringify(root)}))] })`,
        )
        .join('\n'),
    )
    expect(lines.filter((line) => line.includes('Astro writes its final pages'))).toHaveLength(2)
    expect(await hasVariants(join(first, 'dist'))).toBe(false)
    expect(await hasVariants(join(second, 'dist'))).toBe(false)
  })

  it('one plugin instance used for two builds with different outDirs compresses each, and each folder only', async () => {
    const root = await app()
    const lines = await inChild(
      root,
      `const plugin = preencode(options(${JSON.stringify(root)}))
for (const outDir of ['out-a', 'out-b'])
  await build({ root: ${JSON.stringify(root)}, configFile: false, logLevel: 'warn', build: { outDir }, plugins: [plugin] })`,
    )
    await expectSiteCompressed(join(root, 'out-a'), THRESHOLD)
    await expectSiteCompressed(join(root, 'out-b'), THRESHOLD)
    expect(lines).toEqual([])
  })
})
