// The package's rooms: plan/ (the plan, the state record, the target contract and limits) at the
// bottom, targets/ (local, rsync, s3 and the folder helpers) above it, and on top the target
// table, the deploy and the delta step; no import cycle, type-only ones included. The table
// imports each target's module lazily, so `s3://` alone loads the AWS SDK (lazy-sdk.test.ts).
import { join } from 'node:path'
import { layoutViolations } from '@preencode/test-utils'
import { expect, it } from 'vitest'

it('each folder imports only folders below it, with no import cycle', () => {
  expect(layoutViolations(join(import.meta.dirname, '../src'), { plan: [], targets: ['plan'] })).toEqual({
    unknownFolders: [],
    upward: [],
    cycles: [],
  })
})
