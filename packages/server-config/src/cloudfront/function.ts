// A CloudFront Function (runtime cloudfront-js-2.0, viewer-request event) that serves the
// pre-compressed sibling objects deploy stored (`app.js.br` with Content-Encoding: br).
// S3 cannot fall back on a missing key the way a server can, so the function must know what
// exists without knowing the content: every compressible name is taken to have every coding,
// and the files that differ (too small, or a coding that saved too little, or that have RFC 9842
// deltas) are listed in a CloudFront KeyValueStore (`cloudfrontKeyValueStore`). The function's
// code depends on options only: a few KB whatever the site's size, committed once; the store's
// data changes with content. Associated with the viewer response too, the same code sets `Vary`
// and `Use-As-Dictionary` (S3 cannot store either header on an object).

import { type Encoding, type Manifest, type ManifestDelta, type OptionLabel, userError } from '@preencode/core'
import {
  ASSET_DICTIONARY_NAME_PATTERN,
  AVAILABLE_DICTIONARY_PATTERN,
  HASHED_NAME_RULE,
  PAGE_DICTIONARY_NAME_PATTERN,
} from '@preencode/core/internal'
import type { ConventionOptions, ResolvedConventions } from '../http/conventions.js'
import { DOTFILE_URL_PCRE } from '../http/dotfiles.js'
import { QVALUE } from '../http/negotiate.js'
import { CODING_LETTER, DELTA_LETTER, letterLegend } from '../shared/coding-letters.js'
import { resolveConventions } from '../shared/conventions.js'
import { ASSET_USE_AS_DICTIONARY, PAGE_USE_AS_DICTIONARY } from '../shared/dictionary.js'
import { fail, KEY_LABEL } from '../shared/option-error.js'
import { resolveServingPolicy, type ServingPolicy, SUFFIX } from '../shared/policy.js'
import { conventionCode, conventionEntries } from './conventions.js'

/** `cloudfrontFunction()`'s and `cloudfrontKeyValueStore()`'s options. */
export interface CloudfrontFunctionOptions extends ConventionOptions {
  /**
   * Encodings the function may pick, in the server's order of preference when the client's
   * q-values tie.
   * @default the manifest's formats, in the order br, zstd, gzip
   */
  encodings?: Encoding[]
  /**
   * Name appended to URIs ending in `/`.
   * @default 'index.html'
   */
  indexFile?: string
  /**
   * Fail when the code exceeds this many bytes (CloudFront's limit for a function is 10 KB).
   * @default 10240
   */
  maxBytes?: number
}

/** CloudFront's maximum function size. */
export const CLOUDFRONT_FUNCTION_MAX_BYTES = 10_240
/**
 * CloudFront KeyValueStore limits (the import file, its keys and its values): 5 MB, 512 and 1024
 * characters (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/kvs-with-functions-create-s3-kvp.html).
 */
export const KEY_VALUE_STORE_MAX_BYTES = 5 * 1024 * 1024
/** The longest KeyValueStore key, in bytes. */
export const KEY_VALUE_STORE_MAX_KEY_BYTES = 512
/** The longest KeyValueStore value, in bytes. */
export const KEY_VALUE_STORE_MAX_VALUE_BYTES = 1024

/** The value of a file with no variant (a KeyValueStore value cannot be empty). */
const NONE = '-'
/** A SHA-256 in base64, as `Available-Dictionary` names it (without the colons). */
const DICTIONARY_ID = /^[A-Za-z0-9+/]{43}=$/
/** `Use-As-Dictionary` of the shared page dictionary, as every server sends it. */

interface Resolved {
  policy: ServingPolicy
  encodings: Encoding[]
  indexFile: string
  maxBytes: number
  /** The value every compressible name is taken to have: every coding in the order of preference. */
  full: string
  conventions: ResolvedConventions
}

/**
 * Checks the CloudFront Function's options, naming the one at fault through `label` (a direct
 * call: its key; the CLI: its flag, `--index-file`; a plugin: its `serverConfigs` entry).
 */
export function resolveCloudfrontOptions(
  options: CloudfrontFunctionOptions = {},
  label: OptionLabel = KEY_LABEL,
): CloudfrontFunctionOptions & ResolvedConventions {
  for (const encoding of options.encodings ?? []) {
    if (!Object.hasOwn(CODING_LETTER, encoding))
      fail(`${label('encodings')} has "${String(encoding)}", which is not one of br, zstd, gzip.`)
  }
  const indexFile = options.indexFile ?? 'index.html'
  if (typeof indexFile !== 'string' || indexFile === '' || indexFile.includes('/'))
    fail(`${label('indexFile')} is ${JSON.stringify(indexFile)}; use a file name such as 'index.html'.`)
  return { ...options, ...resolveConventions(options, label) }
}

function resolve(manifest: Manifest, options: CloudfrontFunctionOptions): Resolved {
  const {
    encodings: given,
    indexFile = 'index.html',
    maxBytes = CLOUDFRONT_FUNCTION_MAX_BYTES,
    cleanUrls,
    spa,
  } = resolveCloudfrontOptions(options)
  const policy = resolveServingPolicy(manifest)
  if (!policy.keepOriginals) {
    const missing = manifest.files.filter((f) => !f.originalOnDisk)
    throw userError(
      'server-config',
      `${missing.length} files (e.g. ${missing[0]?.path}) were built with keepOriginals: false. CloudFront cannot decode a variant for clients that accept no encoding, so they would get an error; build with keepOriginals: true for S3 + CloudFront.`,
    )
  }
  const encodings = given ?? [...policy.codings]
  const full = encodings.map((e) => CODING_LETTER[e]).join('')
  return { policy, encodings, indexFile, maxBytes, full, conventions: { cleanUrls, spa } }
}

/**
 * The function's source. On the viewer request, `handler(event)` returns the request with `uri`
 * rewritten to `<uri>.br|.zst|.gz` when the client accepts that coding and the object exists
 * (every coding for a compressible name unless the KeyValueStore says otherwise); among equal
 * q-values the smallest (the store's order, else the order of preference); `/dir/` mapped to
 * `/dir/index.html`. With a valid `Available-Dictionary` (RFC 9842) for which the store lists a
 * delta, and `dcb`/`dcz` named in Accept-Encoding, the URI becomes the delta's key (`deltaPath`).
 * On the viewer response (the same function associated a second time) it sets `Vary` and, on
 * versioned assets and the page dictionary, `Use-As-Dictionary`. Identical for every build
 * with the same options.
 */
export function cloudfrontFunction(manifest: Manifest, options: CloudfrontFunctionOptions = {}): string {
  const { policy, encodings, indexFile, maxBytes, conventions } = resolve(manifest, options)
  const order = encodings.map((e) => [e, CODING_LETTER[e], SUFFIX[e]])
  const code = `// generated by preencode — do not edit (from ${policy.generator}). CloudFront Function, cloudfront-js-2.0,
// viewer-request (and viewer-response, for Vary and Use-As-Dictionary).
// Rewrites the URI to a pre-compressed sibling (.br/.zst/.gz) that Accept-Encoding accepts. Every
// compressible name has every coding, tried in this order, unless the associated KeyValueStore lists
// the codings it has, smallest first (${letterLegend(CODING_LETTER)}), then after each | a dictionary
// (44 base64 characters) and its deltas, smallest first (${letterLegend(DELTA_LETTER)}; RFC 9842).
import cf from 'cloudfront';
var kvs = cf.kvs();
var X = /\\.(?:${policy.extensions.join('|')})$/i;
var O = ${JSON.stringify(order)};
var I = ${JSON.stringify(indexFile)};
var D = new RegExp(${JSON.stringify(AVAILABLE_DICTIONARY_PATTERN)});
var DC = {${Object.entries(DELTA_LETTER)
    .map(([coding, letter]) => `${letter}:'${coding}'`)
    .join(',')}};
var V = new RegExp(${JSON.stringify(HASHED_NAME_RULE.versionedAsset)});
var PD = new RegExp(${JSON.stringify(`^/${PAGE_DICTIONARY_NAME_PATTERN}$`)}), PH = ${JSON.stringify(PAGE_USE_AS_DICTIONARY)};
var AD = new RegExp(${JSON.stringify(`^/${ASSET_DICTIONARY_NAME_PATTERN}$`)}), AH = ${JSON.stringify(ASSET_USE_AS_DICTIONARY)};
// Dotfiles and dot-folders (.env, the deploy state, temp files) are never served; /.well-known/ is.
var DF = new RegExp(${JSON.stringify(DOTFILE_URL_PCRE)});
${conventionCode(conventions)}
// RFC 9110's qvalue; an entry with a malformed weight (q=.5, q=0x1, a bare q) is ignored, as negotiate() does.
var QV = new RegExp(${JSON.stringify(QVALUE.source)});
function accepted(h){var q={},star=-1,parts=h.split(','),i,j;for(i=0;i<parts.length;i++){var t=parts[i].split(';'),name=t[0].trim().toLowerCase(),v=1;if(!name)continue;
for(j=1;j<t.length;j++){var kv=t[j],e=kv.indexOf('=');if(e<0){v=-1;break}if(kv.slice(0,e).trim().toLowerCase()==='q'){var s=kv.slice(e+1).trim();v=QV.test(s)?Number(s):-1;if(v<0)break}}
if(v<0)continue;if(name==='x-gzip')name='gzip';if(name==='*')star=v;else if(!Object.prototype.hasOwnProperty.call(q,name)||v<q[name])q[name]=v}
return function(n,named){return Object.prototype.hasOwnProperty.call(q,n)?q[n]:(star>=0&&!named?star:0)}}
function header(r){var h=r.headers&&r.headers['accept-encoding'];if(!h)return '';var v=h.value||'';if(h.multiValue){var a=[];for(var i=0;i<h.multiValue.length;i++)a.push(h.multiValue[i].value);v=a.join(',')}return v}
function dictionary(r){var h=r.headers['available-dictionary'];if(!h||h.multiValue&&h.multiValue.length>1)return null;var m=D.exec((h.value||'').replace(/^[ \\t]+|[ \\t]+$/g,''));return m?m[1]:null}
function delta(u,p,e,id,qf){for(var i=1;i<e.length;i++){if(e[i].slice(0,44)!==id)continue;for(var j=44;j<e[i].length;j++){var c=DC[e[i].charAt(j)];
if(c&&qf(c,true)>0){var n=p.slice(p.lastIndexOf('/')+1),d=n.lastIndexOf('.');return [(u+'.dict/'+id.replace(/\\+/g,'%2B').replace(/=/g,'%3D')+(d>0?n.slice(d):'')+'.'+c).replace(/\\/{2,}/g,'/'),c]}}}return null}
function respond(event){var s=event.response,h=s.headers,c=h['content-encoding'],e=c?c.value:'',u=event.request.uri,i;try{u=decodeURIComponent(u)}catch(x){}
// A delta is what the deploy stored as one (Content-Encoding dcb/dcz, from the manifest), never a name: a user's my.dict/ is a folder like any other.
if(e==='dcb'||e==='dcz'){i=u.lastIndexOf('.dict/');if(i>0)u=u.slice(0,i)}else if(e)u=u.replace(/\\.(?:br|zst|gz)$/,'');if(u.charAt(u.length-1)==='/')u+=I;
if(e==='dcb'||e==='dcz')h.vary={value:'Accept-Encoding, Available-Dictionary'};else if(X.test(u))h.vary={value:'Accept-Encoding'};
if(s.statusCode<400){var m=V.exec(u.slice(u.lastIndexOf('/')+1));if(m)h['use-as-dictionary']={value:'match="'+m[1]+m[2]+'*.'+m[3]+'"'};
else if(PD.test(u))h['use-as-dictionary']={value:PH}
else if(AD.test(u))h['use-as-dictionary']={value:AH}}return s}
async function handler(event){if(event.context&&event.context.eventType==='viewer-response')return respond(event);
var r=event.request,u=r.uri,id=dictionary(r),h=header(r),d;delete r.headers['available-dictionary'];try{d=decodeURIComponent(u)}catch(x){d=u}
if(DF.test(d))return {statusCode:404,statusDescription:'Not Found'};if(u.charAt(u.length-1)==='/'){u+=I;r.uri=u;d+=I}
// The cache key holds the coding picked, never the client's spelling: identity unless a variant is.
r.headers['accept-encoding']={value:'identity'};if(C&&EL.test(d)){var w=await page(d.slice(1));if(w===1){u+='.html';d+='.html'}else if(w===2)u=d='/index.html';r.uri=u}if(!h||!X.test(d))return r;var p;try{p=decodeURIComponent(u.slice(1))}catch(x){return r}
var o=O,e=null;try{e=(await kvs.get(p)).split('|');var k=e[0];o=[];for(var j=0;j<k.length;j++)for(var i=0;i<O.length;i++)if(O[i][1]===k.charAt(j))o.push(O[i])}catch(x){}
var qf=accepted(h),t=id&&e?delta(u,p,e,id,qf):null;if(t){r.uri=t[0];r.headers['accept-encoding']={value:t[1]};r.headers['available-dictionary']={value:':'+id+':'};return r}
var best=null,bq=0;for(var i=0;i<o.length;i++){var v=qf(o[i][0]);if(v>bq){bq=v;best=o[i]}}
if(best){r.uri=u+best[2];r.headers['accept-encoding']={value:best[0]}}return r}
`
  const bytes = Buffer.byteLength(code)
  if (bytes > maxBytes) {
    throw userError(
      'server-config',
      `The CloudFront Function is ${bytes} bytes, above the ${maxBytes}-byte \`maxBytes\` (CloudFront's limit for a function is ${CLOUDFRONT_FUNCTION_MAX_BYTES}).`,
    )
  }
  return code
}

/**
 * The KeyValueStore data the function reads, in the import format of
 * `aws cloudfront create-key-value-store --import-source` (`{"data":[{"key","value"}]}`): one
 * entry per compressible file whose variants are not every coding in the order of preference,
 * or that has deltas (key: the path without its leading slash; value: the letters of the codings
 * it has, smallest first: b = br, z = zstd, g = gzip, `-` for none; then, for each dictionary a
 * delta was written against, `|`, the dictionary's base64 SHA-256 and the letters of its deltas,
 * smallest first: b = dcb, z = dcz). Changes with the content: upload it with each deploy,
 * after the objects (the manifest `preencode deploy` leaves behind lists the deltas it uploaded).
 */
export function cloudfrontKeyValueStore(manifest: Manifest, options: CloudfrontFunctionOptions = {}): string {
  const { policy, encodings, full, conventions } = resolve(manifest, options)
  const compressible = new RegExp(`\\.(?:${policy.extensions.join('|')})$`, 'i')
  const lines: string[] = conventionEntries(manifest, conventions).map(([key, value]) => JSON.stringify({ key, value }))
  for (const file of manifest.files) {
    if (!compressible.test(file.path)) continue
    const codings =
      file.variants
        .filter((v) => encodings.includes(v.encoding))
        .sort((a, b) => a.size - b.size || encodings.indexOf(a.encoding) - encodings.indexOf(b.encoding))
        .map((v) => CODING_LETTER[v.encoding])
        .join('') || NONE
    const value = codings + deltaValue(file.deltas ?? [])
    if (value === full) continue
    const keyBytes = Buffer.byteLength(file.path)
    if (keyBytes > KEY_VALUE_STORE_MAX_KEY_BYTES) {
      throw userError(
        'server-config',
        `${file.path}: a CloudFront KeyValueStore key holds at most ${KEY_VALUE_STORE_MAX_KEY_BYTES} bytes (this path has ${keyBytes}); shorten the path.`,
      )
    }
    if (value.length > KEY_VALUE_STORE_MAX_VALUE_BYTES) {
      throw userError(
        'server-config',
        `${file.path}: its CloudFront KeyValueStore value is ${value.length} bytes, above CloudFront's ${KEY_VALUE_STORE_MAX_VALUE_BYTES}: deltas against ${(file.deltas ?? []).length} previous versions. Lower \`deltas.versions\` so fewer dictionaries have deltas.`,
      )
    }
    lines.push(JSON.stringify({ key: file.path, value }))
  }
  // One entry a line: readable, and a diff between two deploys shows which files changed.
  const text = `{"data":[\n${lines.join(',\n')}\n]}\n`
  const total = Buffer.byteLength(text)
  if (total > KEY_VALUE_STORE_MAX_BYTES) {
    throw userError(
      'server-config',
      `The CloudFront KeyValueStore data is ${total} bytes, above CloudFront's ${KEY_VALUE_STORE_MAX_BYTES}: ${lines.length} files are listed (a file is listed when it lacks a coding, its variants' sizes are in another order than ${encodings.join(', ')}, or it has deltas). Lower \`threshold\` and \`minSaving\` so more files have every coding, lower \`deltas.versions\`, or serve from an origin that negotiates itself.`,
    )
  }
  return text
}

/** `|<dictionary id><letters>` per dictionary, in the order of each one's smallest delta. */
function deltaValue(deltas: readonly ManifestDelta[]): string {
  const byDictionary = new Map<string, string>()
  for (const delta of [...deltas].sort((a, b) => a.size - b.size)) {
    // The function compares 44 characters: an id of another shape could never be asked for.
    if (!DICTIONARY_ID.test(delta.dictionary)) continue
    const letter = DELTA_LETTER[delta.encoding]
    const letters = byDictionary.get(delta.dictionary) ?? ''
    if (!letters.includes(letter)) byDictionary.set(delta.dictionary, letters + letter)
  }
  return [...byDictionary].map(([id, letters]) => `|${id}${letters}`).join('')
}
