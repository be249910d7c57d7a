// On a Node that cannot run TypeScript itself (Node 20), the tests run from JavaScript compiled ahead of them:
// through tsx, each test process spent 1–2 s resolving and loading its ~450 modules through loader hooks that run
// on another thread (a file's first test started about 4 s after `npm test`). Node 22.6 and later strip the types
// themselves and never come here.
//
// The compiled tree mirrors the checkout under node_modules/.cache/fps-test/js: src/ and test/ as JavaScript
// (esbuild, one file for one file, relative `.ts` imports pointing at the `.js` beside them, source maps inline so
// a stack trace names the .ts line), the .ts files themselves and every other file as symbolic links to the real
// ones, and every other top-level entry (content/, node_modules/, scripts/, dist/ …) linked. So `import.meta.url`
// and the paths built from it find what they find in the checkout, and a module that starts itself as a child
// process (pglite-init) starts its compiled self with no loader.
//
// As in dist/, the site's browser script is bundled and the site's assets precompressed beside them, once, not by
// each test process (esbuild's service start and Brotli at quality 11 were a quarter of a second a process).
//
// Compiled again: a file whose source is newer than its output; removed: outputs whose source is gone.
import { build } from 'esbuild'
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const COMPILED = join(ROOT, 'node_modules', '.cache', 'fps-test', 'js')
const TREES = ['src', 'test']

const isSource = (p) => p.endsWith('.ts') && !p.endsWith('.d.ts')
const ASSETS = 'src/modules/site/assets'
const CLIENT = 'src/modules/site/client'
const isGenerated = (rel) => dirname(rel) === ASSETS && /^site\.js$|\.(br|gzip)$/.test(rel.slice(ASSETS.length + 1))

function newest(dir) {
  return walk(dir).reduce((max, f) => Math.max(max, statSync(f).mtimeMs), 0)
}

/** The browser script and the compressed assets, made again when the client's code or an asset changed. */
async function bundleAssets() {
  const script = join(COMPILED, ASSETS, 'site.js')
  const sources = Math.max(newest(join(ROOT, CLIENT)), newest(join(ROOT, ASSETS)))
  if (existsSync(script) && statSync(script).mtimeMs >= sources) return
  for (const f of readdirSync(join(COMPILED, ASSETS))) if (isGenerated(join(ASSETS, f))) rmSync(join(COMPILED, ASSETS, f))
  const { bundleClient } = await import('./bundle-client.mjs')
  const { precompressAssets } = await import(pathToFileURL(join(COMPILED, 'src/modules/site/assets.js')).href)
  // A file missing here (a run stopped halfway) is made by the process that needs it, as from src/.
  writeFileSync(script, await bundleClient(join(ROOT, CLIENT, 'site.ts')))
  precompressAssets(join(COMPILED, ASSETS))
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    return e.isDirectory() ? walk(p) : [p]
  })
}

function link(target, path) {
  let current
  try {
    current = readlinkSync(path)
  } catch {
    current = undefined
  }
  if (current === target) return
  rmSync(path, { force: true, recursive: true })
  mkdirSync(dirname(path), { recursive: true })
  symlinkSync(target, path)
}

// esbuild prints every specifier in double quotes: static imports and exports, and import() with a literal.
const RELATIVE_TS = /((?:\bfrom|\bimport)\s*\(?\s*)"(\.{1,2}\/[^"]+)\.ts"/g

/** The compiled file of a test file given by its path in the checkout (relative or absolute). */
export function compiledPath(file) {
  return join(COMPILED, relative(ROOT, resolve(file))).replace(/\.ts$/, '.js')
}

/** The checkout's path of a compiled file, as the runner would have named the .ts (for reports). */
export function sourcePath(file) {
  const rel = relative(COMPILED, file)
  return rel.startsWith('..') ? file : join(ROOT, rel).replace(/\.js$/, '.ts')
}

/** Brings the compiled tree up to date; answers how many files it compiled. */
export async function compileTests() {
  const stale = []
  const wanted = new Set()
  for (const tree of TREES) {
    for (const file of walk(join(ROOT, tree))) {
      const rel = relative(ROOT, file)
      link(file, join(COMPILED, rel))
      wanted.add(rel)
      if (!isSource(file)) continue
      const out = join(COMPILED, rel.replace(/\.ts$/, '.js'))
      wanted.add(relative(COMPILED, out))
      if (!existsSync(out) || statSync(out).mtimeMs < statSync(file).mtimeMs) stale.push(file)
    }
    // What is no longer in the checkout goes (a removed test must not keep running from here).
    if (existsSync(join(COMPILED, tree))) {
      for (const file of walk(join(COMPILED, tree))) {
        const rel = relative(COMPILED, file)
        if (!wanted.has(rel) && !isGenerated(rel)) rmSync(file, { force: true })
      }
    }
  }
  for (const entry of readdirSync(ROOT)) {
    if (!TREES.includes(entry) && entry !== '.git') link(join(ROOT, entry), join(COMPILED, entry))
  }
  for (const entry of readdirSync(COMPILED)) {
    if (!TREES.includes(entry) && !existsSync(join(ROOT, entry)) && lstatSync(join(COMPILED, entry)).isSymbolicLink()) rmSync(join(COMPILED, entry))
  }
  if (stale.length) await compile(stale)
  await bundleAssets()
  return stale.length
}

async function compile(stale) {
  const { outputFiles } = await build({
    entryPoints: stale, outdir: COMPILED, outbase: ROOT, bundle: false, platform: 'node', format: 'esm', target: 'node20',
    sourcemap: 'inline', write: false, logLevel: 'error',
  })
  for (const { path, text } of outputFiles) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text.replace(RELATIVE_TS, '$1"$2.js"'))
  }
}
