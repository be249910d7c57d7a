// The site's browser script, bundled and minified: by `npm run build` into dist/, and by the server itself
// when it runs from src/ (tests, `npm run dev`), where esbuild is installed as a dev dependency.
import { build } from 'esbuild'

export async function bundleClient(entry) {
  return (await bundleClientWithInputs(entry)).code
}

/** The bundle and the files it was made from (esbuild's metafile, paths relative to `root`), for a cache to check. */
export async function bundleClientWithInputs(entry, root = process.cwd()) {
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
    metafile: true,
    absWorkingDir: root,
  })
  return { code: Buffer.from(out.outputFiles[0].contents), inputs: Object.keys(out.metafile.inputs) }
}
