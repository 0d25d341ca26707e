// Project `frameworks-build`: builds every framework fixture once per run, two at a time, before
// the `frameworks` project checks them. A failed build is recorded (its test fails there), not
// thrown here, so one broken framework does not hide the others.
import { test } from '@playwright/test'
import { buildAll } from './builds.ts'
import { FRAMEWORKS } from './list.ts'

test('build every framework fixture with its own build command', async ({}, testInfo) => {
  const results = await buildAll(FRAMEWORKS)
  const lines = FRAMEWORKS.map((framework) => {
    const result = results.get(framework.name)!
    return `${framework.name.padEnd(18)} ${String(result.seconds).padStart(6)} s  exit ${result.status}`
  })
  await testInfo.attach('build times', { body: lines.join('\n'), contentType: 'text/plain' })
  process.stdout.write(`framework builds (${FRAMEWORKS.length}, 2 at a time):\n${lines.join('\n')}\n`)
})
