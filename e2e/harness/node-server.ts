// A node:http server of the harness on 127.0.0.1:<port>, as a serving process the tests can stop.
import type { Server } from 'node:http'

/** What a started server gives the tests: its output so far, and a stop that ends every connection. */
export interface ServingProcess {
  logs(): string
  stop(): Promise<void>
}

export async function listenOnLoopback(server: Server, port: number, logs: () => string): Promise<ServingProcess> {
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done))
  return {
    logs,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
