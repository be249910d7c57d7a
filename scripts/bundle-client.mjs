// The site's browser script, bundled and minified: by `npm run build` into dist/, and by the server itself
// when it runs from src/ (tests, `npm run dev`), where esbuild is installed as a dev dependency.
import { build } from 'esbuild'

export async function bundleClient(entry) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  return Buffer.from(out.outputFiles[0].contents)
}
