// Writes public/fonts/preencode-pixel.ttf: a small but complete TrueType font (5x7 pixel
// glyphs for digits, A-Z and a few marks) so the playground ships a real, loadable TTF without
// a font package. Deterministic: running it again produces the same bytes.
// Usage: node scripts/make-font.mjs
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'fonts', 'preencode-pixel.ttf')

// 5x7 bitmaps, one string per row, '#' = ink.
const GLYPHS = {
  0: ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  1: ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  2: ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  3: ['####.', '....#', '....#', '.###.', '....#', '....#', '####.'],
  4: ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  5: ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  6: ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  7: ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  8: ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  9: ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  J: ['..###', '...#.', '...#.', '...#.', '...#.', '#..#.', '.##..'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  Q: ['.###.', '#...#', '#...#', '#...#', '#.#.#', '#..#.', '.##.#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '#.#.#', '.#.#.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
  '.': ['.....', '.....', '.....', '.....', '.....', '.##..', '.##..'],
  ',': ['.....', '.....', '.....', '.....', '.##..', '..#..', '.#...'],
  '!': ['..#..', '..#..', '..#..', '..#..', '..#..', '.....', '..#..'],
  '-': ['.....', '.....', '.....', '#####', '.....', '.....', '.....'],
  ':': ['.....', '.##..', '.##..', '.....', '.##..', '.##..', '.....'],
}

const UPM = 1000
const PX = 100 // one pixel, in font units
const ADVANCE = 600
const ASCENT = 800
const DESCENT = 200

/** Rectangles (x0, y0, x1, y1) in font units: horizontal runs of ink per row. */
function rectangles(rows) {
  const rects = []
  rows.forEach((row, r) => {
    const yTop = (7 - r) * PX
    for (let c = 0; c < row.length; ) {
      if (row[c] !== '#') {
        c++
        continue
      }
      let end = c
      while (row[end] === '#') end++
      rects.push([50 + c * PX, yTop - PX, 50 + end * PX, yTop])
      c = end
    }
  })
  return rects
}

function glyphData(rects) {
  if (rects.length === 0) return Buffer.alloc(0)
  const xs = rects.flatMap((r) => [r[0], r[2]])
  const ys = rects.flatMap((r) => [r[1], r[3]])
  const head = Buffer.alloc(10)
  head.writeInt16BE(rects.length, 0)
  head.writeInt16BE(Math.min(...xs), 2)
  head.writeInt16BE(Math.min(...ys), 4)
  head.writeInt16BE(Math.max(...xs), 6)
  head.writeInt16BE(Math.max(...ys), 8)
  const ends = Buffer.alloc(rects.length * 2)
  rects.forEach((_, i) => ends.writeUInt16BE(i * 4 + 3, i * 2))
  const points = rects.flatMap(([x0, y0, x1, y1]) => [
    [x0, y0],
    [x0, y1],
    [x1, y1],
    [x1, y0],
  ]) // clockwise
  const flags = Buffer.alloc(points.length, 0x01) // on-curve, 16-bit deltas
  const coords = Buffer.alloc(points.length * 4)
  let px = 0
  let py = 0
  points.forEach(([x, y], i) => {
    coords.writeInt16BE(x - px, i * 2)
    px = x
  })
  points.forEach(([x, y], i) => {
    coords.writeInt16BE(y - py, points.length * 2 + i * 2)
    py = y
  })
  const data = Buffer.concat([head, ends, Buffer.from([0, 0]), flags, coords])
  return data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data
}

const chars = Object.keys(GLYPHS)
// glyph 0 .notdef (a box), 1 space, then the bitmaps
const notdef = [
  [50, 0, 550, 100],
  [50, 600, 550, 700],
  [50, 100, 150, 600],
  [450, 100, 550, 600],
]
const outlines = [notdef, [], ...chars.map((ch) => rectangles(GLYPHS[ch]))]
const glyphs = outlines.map(glyphData)
const maxContours = Math.max(...outlines.map((rects) => rects.length))
const glyf = Buffer.concat(glyphs)
const loca = Buffer.alloc((glyphs.length + 1) * 4)
let offset = 0
glyphs.forEach((g, i) => {
  loca.writeUInt32BE(offset, i * 4)
  offset += g.length
})
loca.writeUInt32BE(offset, glyphs.length * 4)

const u16 = (...v) => {
  const b = Buffer.alloc(v.length * 2)
  v.forEach((x, i) => b.writeUInt16BE(x & 0xffff, i * 2))
  return b
}
const u32 = (v) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(v >>> 0)
  return b
}

const head = Buffer.concat([
  u32(0x00010000),
  u32(0x00010000),
  u32(0),
  u32(0x5f0f3cf5),
  u16(0x000b, UPM),
  Buffer.alloc(16), // created, modified (1904 epoch: zero keeps the output deterministic)
  u16(0, 0, 600, 700),
  u16(0, 8, 2, 1, 0), // bbox, macStyle, lowestRecPPEM, direction hint, indexToLocFormat=1 (long), glyphDataFormat
])
const hhea = Buffer.concat([
  u32(0x00010000),
  u16(ASCENT, -DESCENT, 0, ADVANCE, 0, 0, 600, 1, 0, 0),
  Buffer.alloc(8),
  u16(0, glyphs.length),
])
// maxp 1.0: numGlyphs, maxPoints, maxContours, maxCompositePoints, maxCompositeContours,
// maxZones, maxTwilightPoints, maxStorage, maxFunctionDefs, maxInstructionDefs,
// maxStackElements, maxSizeOfInstructions, maxComponentElements, maxComponentDepth (32 bytes).
const maxp = Buffer.concat([
  u32(0x00010000),
  u16(glyphs.length, maxContours * 4, maxContours, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0),
])
const hmtx = Buffer.concat(glyphs.map((_, i) => u16(ADVANCE, i === 1 ? 0 : 50)))

// cmap: format 4, one segment per character plus the final 0xFFFF.
const codes = [[0x20, 1], ...chars.map((ch, i) => [ch.charCodeAt(0), i + 2])].sort((a, b) => a[0] - b[0])
const segs = [...codes, [0xffff, 0]]
const segX2 = segs.length * 2
const fmt4 = Buffer.concat([
  u16(
    4,
    16 + segs.length * 8,
    0,
    segX2,
    2 ** Math.floor(Math.log2(segs.length)) * 2,
    Math.floor(Math.log2(segs.length)),
    segX2 - 2 ** Math.floor(Math.log2(segs.length)) * 2,
  ),
  u16(...segs.map(([c]) => c)),
  u16(0),
  u16(...segs.map(([c]) => c)),
  u16(...segs.map(([c, g]) => (c === 0xffff ? 1 : g - c))),
  u16(...segs.map(() => 0)),
])
const cmap = Buffer.concat([u16(0, 1, 3, 1), u32(12), fmt4])

const names = {
  0: 'Generated by playground/scripts/make-font.mjs for the preencode playground. Public domain (CC0).',
  1: 'Preencode Pixel',
  2: 'Regular',
  3: 'Preencode Pixel Regular 1.0',
  4: 'Preencode Pixel Regular',
  5: 'Version 1.000',
  6: 'PreencodePixel-Regular',
  13: 'This font is dedicated to the public domain under CC0 1.0: use, copy, modify and redistribute it freely, for any purpose, without asking permission.',
}
const records = Object.entries(names)
let strOffset = 0
const nameRecords = []
const strings = []
for (const [id, text] of records) {
  const bytes = Buffer.from(text, 'utf16le').swap16()
  nameRecords.push(u16(3, 1, 0x409, Number(id), bytes.length, strOffset))
  strings.push(bytes)
  strOffset += bytes.length
}
const name = Buffer.concat([u16(0, records.length, 6 + records.length * 12), ...nameRecords, ...strings])

const os2 = Buffer.concat([
  u16(4, ADVANCE, 400, 5, 0), // version, xAvgCharWidth, weight, width, fsType (installable)
  u16(650, 600, 0, 140, 650, 600, 0, 480, 50, 250), // sub/superscript sizes and offsets, strikeout
  u16(0),
  Buffer.alloc(10),
  Buffer.alloc(16),
  Buffer.from('PRNC'), // family class, panose, unicode ranges, vendor
  u16(0x40, 0x20, 0x5a, ASCENT, -DESCENT, 0, ASCENT, DESCENT), // fsSelection REGULAR, first/last char, typo metrics, win metrics
  Buffer.alloc(8),
  u16(700, 700, 0, 0x20, 0), // code page ranges, xHeight, capHeight, default/break char, maxContext
])
const post = Buffer.concat([u32(0x00030000), u32(0), u16(-100 & 0xffff, 50), u32(1), Buffer.alloc(16)])

const tables = { 'OS/2': os2, cmap, glyf, head, hhea, hmtx, loca, maxp, name, post }
const tags = Object.keys(tables).sort()
function checksum(buf) {
  const padded = Buffer.concat([buf, Buffer.alloc((4 - (buf.length % 4)) % 4)])
  let sum = 0
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0
  return sum
}
const n = tags.length
const entrySelector = Math.floor(Math.log2(n))
const directory = [u32(0x00010000), u16(n, 2 ** entrySelector * 16, entrySelector, n * 16 - 2 ** entrySelector * 16)]
let tableOffset = 12 + n * 16
const bodies = []
for (const tag of tags) {
  const data = tables[tag]
  directory.push(Buffer.from(tag.padEnd(4)), u32(checksum(data)), u32(tableOffset), u32(data.length))
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)])
  bodies.push(padded)
  tableOffset += padded.length
}
const font = Buffer.concat([...directory, ...bodies])
// head.checkSumAdjustment = 0xB1B0AFBA - checksum(whole font)
const headOffset = 12 + n * 16 + bodies.slice(0, tags.indexOf('head')).reduce((s, b) => s + b.length, 0)
font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headOffset + 8)
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, font)
console.log(`wrote ${out} (${font.length} bytes, ${glyphs.length} glyphs)`)
