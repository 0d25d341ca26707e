// Writes the binary fixtures of public/ that are awkward to hand-write: a PNG (already
// compressed, must be skipped) and a real `download.tar.gz` (must be left alone: no .gz.gz).
// Deterministic, so re-running it changes nothing. Usage: node scripts/make-assets.mjs
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32, deflateSync } from 'node:zlib'

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public')
mkdirSync(join(publicDir, 'images'), { recursive: true })

// A 96x96 RGB PNG of seeded noise over a gradient: about 27 KB that deflate cannot shrink.
let seed = 42
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff
const size = 96
const rows = []
for (let y = 0; y < size; y++) {
  const row = Buffer.alloc(1 + size * 3)
  for (let x = 0; x < size; x++) {
    row[1 + x * 3] = (x * 2 + random()) & 0xff
    row[2 + x * 3] = (y * 2 + random()) & 0xff
    row[3 + x * 3] = random()
  }
  rows.push(row)
}
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type), data])
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}
const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(size, 0)
ihdr.writeUInt32BE(size, 4)
ihdr.set([8, 2, 0, 0, 0], 8)
writeFileSync(
  join(publicDir, 'images', 'noise.png'),
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
)

// download.tar.gz: a small release archive, made by the system tar + gzip, fixed mtimes and owners.
const work = mkdtempSync(join(tmpdir(), 'playground-tar-'))
const release = join(work, 'preencode-sample')
mkdirSync(release)
const lines = Array.from(
  { length: 200 },
  (_, i) => `line ${i}: pre-compressed assets are served with Content-Encoding, this archive is not.`,
)
writeFileSync(join(release, 'README.txt'), `${lines.join('\n')}\n`)
writeFileSync(
  join(release, 'data.csv'),
  `id,name,value\n${Array.from({ length: 300 }, (_, i) => `${i},item-${i},${(i * 37) % 101}`).join('\n')}\n`,
)
for (const f of ['README.txt', 'data.csv', '']) utimesSync(join(release, f), 1_700_000_000, 1_700_000_000)
const tar = execFileSync('tar', [
  '--sort=name',
  '--owner=0',
  '--group=0',
  '--numeric-owner',
  '-C',
  work,
  '-cf',
  '-',
  'preencode-sample',
])
writeFileSync(join(publicDir, 'download.tar.gz'), execFileSync('gzip', ['-9', '-n', '-c'], { input: tar }))
rmSync(work, { recursive: true, force: true })
console.log('wrote public/images/noise.png and public/download.tar.gz')
