// The site's static files: the stylesheet, the browser code (bundled from src/modules/site/client/ by `npm run build`
// into dist/modules/site/assets/site.js, or once per process when running from src/) and the icon. Each is served under
// a fingerprinted name (`site.1a2b3c4d.css`) with an ETag and a year-long immutable cache, precompressed in
// Brotli and gzip: by the build (`precompressAssets`, beside the files in dist/), else once per process.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export type Asset = {
  name: string
  type: string
  etag: string
  identity: Buffer
  br: Buffer
  gzip: Buffer
}

export type Assets = {
  css: string
  js: string
  icon: string
  byName: Map<string, Asset>
}

const here = new URL('./', import.meta.url)

/** The built script beside this file (dist/), else bundled now with the dev-only esbuild (src/). */
async function clientScript(): Promise<Buffer> {
  try {
    return await readFile(new URL('assets/site.js', here))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  // @ts-expect-error: a plain .mjs build helper, outside the type-checked tree
  const { bundleClient } = await import('../../../scripts/bundle-client.mjs') as { bundleClient(entry: string): Promise<Buffer> }
  return bundleClient(new URL('client/site.ts', here).pathname)
}

const ENCODERS = {
  br: (body: Buffer) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body: Buffer) => gzipSync(body, { level: 9 }),
}

const digest = (body: Buffer) => createHash('sha256').update(body).digest('hex')

/**
 * Where the build keeps a file's compressed form: named by the content's hash, so a stale one (the file
 * changed after the build) is never found. Brotli at quality 11 costs about 50 ms at each start otherwise.
 */
const compressedName = (file: string, hash: string, encoding: keyof typeof ENCODERS) => `${file}.${hash.slice(0, 16)}.${encoding}`

function encoded(file: string, hash: string, body: Buffer, encoding: keyof typeof ENCODERS): Buffer {
  try {
    return readFileSync(new URL(`assets/${compressedName(file, hash, encoding)}`, here))
  } catch {
    return ENCODERS[encoding](body)
  }
}

function asset(file: string, type: string, body: Buffer): Asset {
  const hash = digest(body)
  const dot = file.lastIndexOf('.')
  return {
    name: `${file.slice(0, dot)}.${hash.slice(0, 10)}${file.slice(dot)}`,
    type,
    etag: `"${hash.slice(0, 27)}"`,
    identity: body,
    br: encoded(file, hash, body, 'br'),
    gzip: encoded(file, hash, body, 'gzip'),
  }
}

/** The build's step: every file of `dir` (dist/modules/site/assets) gets its Brotli and gzip forms beside it. */
export function precompressAssets(dir: string): void {
  for (const file of readdirSync(dir).filter((f) => !/\.(br|gzip)$/.test(f))) {
    const body = readFileSync(`${dir}/${file}`)
    const hash = digest(body)
    for (const encoding of ['br', 'gzip'] as const) writeFileSync(`${dir}/${compressedName(file, hash, encoding)}`, ENCODERS[encoding](body))
  }
}

let built: Promise<Assets> | undefined

/** Built once per process and shared by every app instance (the tests build many). */
export function loadAssets(): Promise<Assets> {
  built ??= (async () => {
    const [css, js, icon] = await Promise.all([
      readFile(new URL('assets/site.css', here)).then((b) => asset('site.css', 'text/css; charset=utf-8', b)),
      clientScript().then((b) => asset('site.js', 'text/javascript; charset=utf-8', b)),
      readFile(new URL('assets/icone.svg', here)).then((b) => asset('icone.svg', 'image/svg+xml', b)),
    ])
    return {
      css: `/assets/${css.name}`,
      js: `/assets/${js.name}`,
      icon: `/assets/${icon.name}`,
      byName: new Map([css, js, icon].map((a) => [a.name, a])),
    }
  })()
  built.catch(() => { built = undefined })
  return built
}
