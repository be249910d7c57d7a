// The site's static files: the stylesheet, the browser code (TypeScript bundled with esbuild once per
// process, from src/site/client/) and the icon. Each is served under a fingerprinted name
// (`site.1a2b3c4d.css`) with an ETag and a year-long immutable cache, precompressed in Brotli and gzip.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'

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

async function bundleClient(): Promise<Buffer> {
  const out = await build({
    entryPoints: [new URL('client/site.ts', here).pathname],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  return Buffer.from(out.outputFiles[0]!.contents)
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
      bundleClient().then((b) => asset('site', 'js', 'text/javascript; charset=utf-8', b)),
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
