// The packages the built service imports, bundled into shared files under dist/vendor/ instead of loaded from
// node_modules one module at a time: start-up read about 870 files, and loading them was about two thirds of
// start-up to ready (BENCHMARKS.md). Each of our own modules stays its own file at its own path (its relative
// imports are left alone), so what they find beside themselves through import.meta.url (migrations, content,
// assets, the PGlite child) is where it was. tsc's source maps are read and chained, so a stack still points
// into src/.
//
// Left in node_modules, and imported from there at run time: packages that find files of their own at run time
// or load native code (PGlite's WebAssembly, argon2's binary, pino's transports and worker thread), and those
// imported only on first use (src/platform/lib/on-first-use.ts), which bundling would load at start. And what OpenTelemetry
// patches as it loads (pg; ioredis is already here) with the packages that patch it (src/platform/telemetry/tracing.ts):
// a bundled copy is invisible to the loader hooks, and the hooks' registry must be the one in node_modules.
import { build } from 'esbuild'
import { readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'

export const EXTERNAL = [
  '@electric-sql/pglite', '@node-rs/argon2', 'pino', 'pino-pretty', 'thread-stream', 'sonic-boom', 'pg-native',
  'ioredis', 'jose', 'nodemailer', 'pdfkit', 'qrcode',
  'pg', '@opentelemetry/*', 'import-in-the-middle', 'require-in-the-middle',
]

function jsFiles(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    if (statSync(p).isDirectory()) return p === join(dir, 'modules', 'site', 'assets') ? [] : jsFiles(p)
    return p.endsWith('.js') ? [p] : []
  })
}

export async function bundlePackages(dist) {
  const own = (path) => path.startsWith(dist + '/') && !path.includes('/node_modules/')
  const result = await build({
    entryPoints: jsFiles(dist).filter((f) => !f.startsWith(join(dist, 'modules', 'site', 'assets'))),
    outdir: dist, outbase: dist, write: false,
    bundle: true, splitting: true, format: 'esm', platform: 'node', target: ['node20'],
    chunkNames: 'vendor/[name]-[hash]', sourcemap: true, sourcesContent: false, legalComments: 'inline', logLevel: 'warning',
    external: EXTERNAL,
    // CommonJS packages in an ES module call require() for Node's own modules: give every file one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [{
      name: 'own-modules-stay-files',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => args.kind !== 'entry-point' && own(args.importer) ? { path: args.path, external: true } : undefined)
      },
    }],
  })
  // Written only once esbuild has read every input: the outputs replace them.
  rmSync(join(dist, 'vendor'), { recursive: true, force: true })
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(file.path, file.contents)
  }
  return result.outputFiles.filter((f) => f.path.startsWith(join(dist, 'vendor') + '/') && f.path.endsWith('.js')).length
}
