// `npm run lint`'s second half: the folders' import rules (docs/architecture.md, "Folders"), which ESLint's
// rules can say only file by file. Imports are read by TypeScript's own pre-processor (static, dynamic and
// `export … from` alike). The rules:
//   - src/platform/ imports no module and nothing of the composition (src/*.ts, src/cli/);
//   - a module (src/modules/NAME/) imports the platform, itself, and another module only through its public
//     entry, src/modules/OTHER/index.ts (or its settings schema, settings.ts); so does the composition;
//   - no import cycle between folders (each platform folder, each module).
// The browser's code (src/modules/site/client/) is a program of its own, bundled for the browser: it takes
// constants and types from the files that hold them, since an entry would pull the server's code into the bundle.
// Exits 1 naming each import that breaks a rule. `node scripts/check-boundaries.mjs [ROOT]` checks ROOT/src
// (default: this project's).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'))
const SRC = join(ROOT, 'src')
/** A module's files that others may import: its entry, and the schema of its settings (src/config.ts composes them). */
const PUBLIC = new Set(['index.ts', 'settings.ts'])
const BROWSER = join(SRC, 'modules/site/client')

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return path === BROWSER ? [] : sources(path)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The folder a source belongs to: `platform/http`, `module:contact`, or `composition`. */
function unitOf(file) {
  const [top, name] = relative(SRC, file).split('/')
  if (top === 'platform') return `platform/${name.replace(/\.ts$/, '')}`
  if (top === 'modules') return `module:${name}`
  return 'composition'
}

const problems = []
const edges = new Map() // unit -> Map(unit -> the first "file imports spec" seen)
for (const file of sources(SRC)) {
  const from = unitOf(file)
  const text = readFileSync(file, 'utf8')
  const { importedFiles } = ts.preProcessFile(text, true, true)
  for (const { fileName: spec } of importedFiles) {
    if (!spec.startsWith('.')) continue
    const target = resolve(dirname(file), spec)
    if (!target.startsWith(SRC + '/')) continue
    const to = unitOf(target)
    if (to === from) continue
    const where = `${relative(ROOT, file)} imports ${spec}`
    const entry = to.startsWith('module:') && PUBLIC.has(relative(join(SRC, 'modules', to.slice(7)), target))
    if (from.startsWith('platform/') && !to.startsWith('platform/')) {
      problems.push(`${where}: the platform imports no module and nothing of the composition`)
    } else if (from.startsWith('module:') && to === 'composition') {
      problems.push(`${where}: a module imports nothing of the composition (app.ts, cli/): take it as a parameter`)
    } else if (to.startsWith('module:') && !entry) {
      problems.push(`${where}: another module is reached only through its entry, src/modules/${to.slice(7)}/index.ts`)
    }
    if (from !== 'composition' && to !== 'composition') {
      if (!edges.has(from)) edges.set(from, new Map())
      if (!edges.get(from).has(to)) edges.get(from).set(to, where)
    }
  }
}

// Cycles: Tarjan's strongly connected components of the folder graph; each component of two or more is one.
let counter = 0
const stack = []
const onStack = new Set()
const index = new Map()
const low = new Map()
function connect(v) {
  index.set(v, counter); low.set(v, counter); counter++
  stack.push(v); onStack.add(v)
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v), low.get(w))) }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
  }
  if (low.get(v) !== index.get(v)) return
  const component = []
  let w
  do { w = stack.pop(); onStack.delete(w); component.push(w) } while (w !== v)
  if (component.length < 2) return
  const inside = new Set(component)
  const examples = component.flatMap((a) => [...(edges.get(a) ?? [])].filter(([b]) => inside.has(b)).map(([, where]) => `    ${where}`))
  problems.push(`an import cycle between ${component.sort().join(', ')}:\n${examples.join('\n')}`)
}
for (const v of edges.keys()) if (!index.has(v)) connect(v)

if (problems.length) {
  const count = `${problems.length} import${problems.length > 1 ? 's break' : ' breaks'}`
  console.error(`check-boundaries: ${count} the folders' rules (docs/architecture.md, "Folders"):`)
  for (const p of problems) console.error(`  ${p}`)
  process.exit(1)
}
console.log(`check-boundaries: ${edges.size} folders, every import within the rules`)
