// The site's static files: the stylesheet, the browser code (bundled from src/site/client/ by `npm run build`
// into dist/site/assets/site.js, or once per process when running from src/) and the icon. Each is served under
// a fingerprinted name (`site.1a2b3c4d.css`) with an ETag and a year-long immutable cache, precompressed in
// Brotli and gzip.
import { createHash } from 'node:crypto'
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
  const { bundleClient } = await import('../../scripts/bundle-client.mjs') as { bundleClient(entry: string): Promise<Buffer> }
  return bundleClient(new URL('client/site.ts', here).pathname)
}

function asset(base: string, ext: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex')
  return {
    name: `${base}.${hash.slice(0, 10)}.${ext}`,
    type,
    etag: `"${hash.slice(0, 27)}"`,
    identity: body,
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip: gzipSync(body, { level: 9 }),
  }
}

let built: Promise<Assets> | undefined

/** Built once per process and shared by every app instance (the tests build many). */
export function loadAssets(): Promise<Assets> {
  built ??= (async () => {
    const [css, js, icon] = await Promise.all([
      readFile(new URL('assets/site.css', here)).then((b) => asset('site', 'css', 'text/css; charset=utf-8', b)),
      clientScript().then((b) => asset('site', 'js', 'text/javascript; charset=utf-8', b)),
      readFile(new URL('assets/icone.svg', here)).then((b) => asset('icone', 'svg', 'image/svg+xml', b)),
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
