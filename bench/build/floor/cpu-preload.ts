// Loaded with `node --import` into the `preencode compress` child of a cold run (index.ts): at
// exit it writes the process's CPU time (user + system, every thread: the encoders run on
// libuv's threads) to the file named by PREENCODE_BENCH_CPU_FILE. Unlike wall time, CPU time
// hardly grows when other work shares the machine, so "CPU of the run / CPU of its encodes
// alone" says what the run adds over the encodes themselves, even on a busy machine.
import { writeFileSync } from 'node:fs'

const file = process.env.PREENCODE_BENCH_CPU_FILE
if (file)
  process.once('exit', () => {
    const { user, system } = process.cpuUsage()
    writeFileSync(file, JSON.stringify({ cpuMs: (user + system) / 1000 }))
  })
