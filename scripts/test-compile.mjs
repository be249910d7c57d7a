// On a Node that cannot run TypeScript itself (Node 20), the tests run from JavaScript compiled ahead of them:
// through tsx, each test process spent 1–2 s resolving and loading its ~450 modules through loader hooks that run
// on another thread (a file's first test started about 4 s after `npm test`). Node 22.6 and later strip the types
// themselves and never come here.
//
// The compiled tree mirrors the checkout under node_modules/.cache/fps-test/js: src/, test/ and test-scale/ as
// JavaScript (esbuild, one file for one file, relative `.ts` imports pointing at the `.js` beside them, source maps
// inline so a stack trace names the .ts line), the .ts files themselves and every other file as symbolic links to
// the real ones, and every other top-level entry (content/, node_modules/, scripts/, dist/ …) linked. So
// `import.meta.url` and the paths built from it find what they find in the checkout, and a module that starts
// itself as a child process (pglite-init) starts its compiled self with no loader.
//
// As in dist/, the site's browser script is bundled and the site's assets precompressed beside them, once, not by
// each test process (esbuild's service start and Brotli at quality 11 were a quarter of a second a process).
//
// What is compiled from what is decided by content, never by file times: a manifest keeps the digest of each
// source as it was compiled (and of every file the browser script was bundled from), so a file put back by `mv`,
// restored from a backup or saved while a compile ran is compiled again at the next run. A change of esbuild or of
// the options below compiles everything again. A file esbuild cannot compile becomes a module that throws its
// error when imported: the tests that use it fail, naming it, and the others run.
import { transform, version as esbuildVersion } from 'esbuild'
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const COMPILED = join(ROOT, 'node_modules', '.cache', 'fps-test', 'js')
const TREES = ['src', 'test', 'test-scale']
const MANIFEST = join(COMPILED, '.manifest.json')
const OPTIONS = { platform: 'node', format: 'esm', target: 'node20', sourcemap: 'inline', loader: 'ts' }
// Any change here or to esbuild invalidates every compiled file.
const RECIPE = `esbuild ${esbuildVersion} ${JSON.stringify(OPTIONS)} relative-ts-to-js 2`

const isSource = (p) => p.endsWith('.ts') && !p.endsWith('.d.ts')
const ASSETS = 'src/modules/site/assets'
const CLIENT_ENTRY = 'src/modules/site/client/site.ts'
const isGenerated = (rel) => dirname(rel) === ASSETS && /^site\.js$|\.(br|gzip)$/.test(rel.slice(ASSETS.length + 1))
const digest = (text) => createHash('sha256').update(text).digest('base64url').slice(0, 22)

function walk(dir) {
  if (!existsSync(dir)) return []
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

function readManifest() {
  try {
    const m = JSON.parse(readFileSync(MANIFEST, 'utf8'))
    if (m.recipe === RECIPE) return m
  } catch {
    // none yet, or unreadable: everything is compiled
  }
  return { recipe: RECIPE, files: {}, client: null }
}

function writeManifest(m) {
  const partial = `${MANIFEST}.${process.pid}`
  writeFileSync(partial, JSON.stringify(m))
  renameSync(partial, MANIFEST)
}

/** Brings the compiled tree up to date; answers how many files it compiled. */
export async function compileTests() {
  const manifest = readManifest()
  const stale = []
  const wanted = new Set()
  const sources = {}
  for (const tree of TREES) {
    for (const file of walk(join(ROOT, tree))) {
      const rel = relative(ROOT, file)
      link(file, join(COMPILED, rel))
      wanted.add(rel)
      if (!isSource(file)) continue
      const text = readFileSync(file, 'utf8')
      const out = rel.replace(/\.ts$/, '.js')
      wanted.add(out)
      sources[rel] = digest(text)
      if (manifest.files[rel] !== sources[rel] || !existsSync(join(COMPILED, out))) stale.push({ rel, text })
    }
    // What is no longer in the checkout goes (a removed test must not keep running from here).
    for (const file of walk(join(COMPILED, tree))) {
      const rel = relative(COMPILED, file)
      if (!wanted.has(rel) && !isGenerated(rel)) rmSync(file, { force: true })
    }
  }
  for (const entry of readdirSync(ROOT)) {
    if (!TREES.includes(entry) && entry !== '.git') link(join(ROOT, entry), join(COMPILED, entry))
  }
  for (const entry of readdirSync(COMPILED)) {
    const path = join(COMPILED, entry)
    if (!TREES.includes(entry) && !existsSync(join(ROOT, entry)) && lstatSync(path).isSymbolicLink()) rmSync(path)
  }
  // Each file is recorded with the digest of the text it was compiled from: one changed since is seen next time.
  await Promise.all(stale.map(async ({ rel, text }) => {
    await compileOne(rel, text)
    manifest.files[rel] = digest(text)
  }))
  for (const rel of Object.keys(manifest.files)) if (!(rel in sources)) delete manifest.files[rel]
  manifest.client = await bundleAssets(manifest.client)
  writeManifest(manifest)
  return stale.length
}

async function compileOne(rel, text) {
  const out = join(COMPILED, rel.replace(/\.ts$/, '.js'))
  mkdirSync(dirname(out), { recursive: true })
  let code
  try {
    const result = await transform(text, { ...OPTIONS, sourcefile: join(ROOT, rel), logLevel: 'silent' })
    code = result.code.replace(RELATIVE_TS, '$1"$2.js"')
  } catch (err) {
    const first = err.errors?.[0]
    const where = first?.location ? `${rel}:${first.location.line}:${first.location.column + 1}` : rel
    const message = `${where}: ${first?.text ?? err.message}`
    console.error(`test-compile: cannot compile ${message}`)
    code = `throw new SyntaxError(${JSON.stringify(`cannot compile ${message}`)})\n`
  }
  const partial = `${out}.${process.pid}`
  writeFileSync(partial, code)
  renameSync(partial, out)
}

/**
 * The browser script and the compressed assets, made again when a file the script was bundled from (esbuild's own
 * list of its inputs, wherever they are) or an asset changed.
 */
async function bundleAssets(previous) {
  const assetsDir = join(COMPILED, ASSETS)
  const assetDigests = Object.fromEntries(readdirSync(join(ROOT, ASSETS)).sort().map((f) => [f, digest(readFileSync(join(ROOT, ASSETS, f)))]))
  const now = (f) => (existsSync(join(ROOT, f)) ? digest(readFileSync(join(ROOT, f))) : null)
  const inputsNow = previous ? Object.fromEntries(Object.keys(previous.inputs).map((f) => [f, now(f)])) : null
  const same = previous && existsSync(join(assetsDir, 'site.js')) && JSON.stringify(previous.inputs) === JSON.stringify(inputsNow)
    && JSON.stringify(previous.assets) === JSON.stringify(assetDigests)
  if (same) return previous
  for (const f of readdirSync(assetsDir)) if (isGenerated(join(ASSETS, f))) rmSync(join(assetsDir, f))
  const { bundleClientWithInputs } = await import('./bundle-client.mjs')
  const bundled = await bundleClientWithInputs(join(ROOT, CLIENT_ENTRY), ROOT)
  const inputs = Object.fromEntries(bundled.inputs.sort().map((f) => [f, digest(readFileSync(join(ROOT, f)))]))
  // A file missing here (a run stopped halfway) is made by the process that needs it, as from src/.
  writeFileSync(join(assetsDir, 'site.js'), bundled.code)
  const { precompressAssets } = await import(pathToFileURL(join(COMPILED, 'src/modules/site/assets.js')).href)
  precompressAssets(assetsDir)
  return { inputs, assets: assetDigests }
}
