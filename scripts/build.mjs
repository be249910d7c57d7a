// `npm run build`: the server, the CLI and the worker compiled to JavaScript in dist/ (tsc, same layout as
// src/), the packages they import bundled into dist/vendor/ (scripts/bundle-packages.mjs), the SQL migrations,
// static assets and data files copied beside them, and the browser script bundled once (esbuild), so the running
// process needs neither a TypeScript loader nor a bundler.
//
// `--if-stale` (run before `npm start`, `npm run cli` and `npm run worker`): builds only when dist/ is
// missing or older than the sources; on a production install (`npm ci --omit=dev`, no compiler) it keeps
// the dist/ that was built and copied in.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const stamp = join(dist, '.build-stamp')
const require = createRequire(import.meta.url)

function newestMtime(path) {
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  return readdirSync(path).reduce((max, f) => Math.max(max, newestMtime(join(path, f))), st.mtimeMs)
}

function resolveDev(name) {
  try {
    return require.resolve(name)
  } catch {
    return undefined
  }
}

const ifStale = process.argv.includes('--if-stale')
const tsc = resolveDev('typescript/bin/tsc')

if (ifStale) {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0
  const sources = Math.max(...['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => newestMtime(join(root, p))))
  if (built && (built >= sources || !tsc)) process.exit(0)
  if (!tsc) {
    console.error('build: dist/ is missing and the compiler is not installed; run `npm install` (with dev dependencies), then `npm run build`')
    process.exit(1)
  }
  console.error(built ? 'build: sources changed since the last build; building dist/ again' : 'build: no dist/ yet; building it once')
}
if (!tsc) {
  console.error('build: typescript is not installed; run `npm install` (with dev dependencies) first')
  process.exit(1)
}

const started = performance.now()
rmSync(dist, { recursive: true, force: true })
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' })
if (compiled.status !== 0) {
  console.error('build: tsc failed (see above); dist/ was not written')
  rmSync(dist, { recursive: true, force: true })
  process.exit(1)
}
cpSync(join(root, 'src/platform/db/migrations'), join(dist, 'platform/db/migrations'), { recursive: true })
cpSync(join(root, 'src/modules/site/assets'), join(dist, 'modules/site/assets'), { recursive: true })
cpSync(join(root, 'src/modules/credentials/common-passwords.txt'), join(dist, 'modules/credentials/common-passwords.txt'))

const { bundlePackages } = await import('./bundle-packages.mjs')
const chunks = await bundlePackages(dist)
const { bundleClient } = await import('./bundle-client.mjs')
mkdirSync(join(dist, 'modules/site/assets'), { recursive: true })
writeFileSync(join(dist, 'modules/site/assets/site.js'), await bundleClient(join(root, 'src/modules/site/client/site.ts')))
// Compressed once here rather than at every start (the same function the server falls back to).
const { precompressAssets } = await import(join(dist, 'modules/site/assets.js'))
precompressAssets(join(dist, 'modules/site/assets'))
writeFileSync(stamp, `${new Date().toISOString()}\n`)
console.error(`build: dist/ written in ${((performance.now() - started) / 1000).toFixed(1)} s (packages in ${chunks} files under dist/vendor/)`)
