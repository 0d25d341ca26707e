// The Accept-Encoding spellings every server and the shared cache are asked with: odd cases,
// aliases, unknown codings, q-values, wildcards and refusals (RFC 9110 §12.5.3).

/** Header values beyond the plain browser and `gzip` ones; `''` is an empty header. */
export const ACCEPT_ENCODING_SPELLINGS: readonly string[] = [
  '',
  'identity',
  'GZIP',
  'x-gzip',
  'br',
  'BR',
  'zstd',
  'brotli',
  'gzip;q=0',
  'br;q=0, gzip',
  'br;q=0, zstd;q=0, gzip;q=0.5',
  'gzip, zstd',
  'deflate',
  '*',
  '*;q=0, gzip',
  'identity;q=0, br',
  'gzip;q=0, br;q=0, zstd;q=0',
  ' gzip ;q=1.0 , br ; q=0 ',
  // Weights outside RFC 9110's qvalue grammar: the entry is ignored (issue 29), never read as 1.
  'br;q=0x1',
  'br;q=.5, gzip',
  'br;q, gzip',
  'br;q=1.0001, gzip;q=0.5',
  'zstd;q=2, gzip',
  'gzip;q',
]
