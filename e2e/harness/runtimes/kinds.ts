// The JavaScript runtimes and frameworks the Fetch handler (`createPreencodeHandler`) is run on
// by the serving suite: each a tiny server script in this folder, started by its binary (Bun and
// Deno from npm, e2e/package.json, pinned) with the site's folder and a port (`start.ts`).

import type { RuntimeBinary } from '@preencode/test-utils'

export interface RuntimeSpec {
  readonly binary: RuntimeBinary
  /** The server script, in this folder: `<script> <root> <port>` listens on 127.0.0.1:<port>. */
  readonly script: string
}

export const RUNTIMES = {
  /** The handler under Node's own http server, through srvx's Fetch adapter (Nitro 3's layer). */
  srvx: { binary: 'node', script: 'srvx.mjs' },
  'bun-serve': { binary: 'bun', script: 'bun-serve.mjs' },
  'deno-serve': { binary: 'deno', script: 'deno-serve.mjs' },
  'hono-node': { binary: 'node', script: 'hono.mjs' },
  'hono-bun': { binary: 'bun', script: 'hono.mjs' },
  'hono-deno': { binary: 'deno', script: 'hono.mjs' },
  fastify: { binary: 'node', script: 'fastify.mjs' },
  h3: { binary: 'node', script: 'h3.mjs' },
} as const satisfies Record<string, RuntimeSpec>

export type RuntimeKind = keyof typeof RUNTIMES

export const RUNTIME_KINDS = Object.keys(RUNTIMES) as RuntimeKind[]

export function isRuntimeKind(kind: string): kind is RuntimeKind {
  return Object.hasOwn(RUNTIMES, kind)
}
