// TypeBox is used at run time only to build the JSON schemas once, at start, through `Type`; its package is
// about 700 ES modules, and loading them was the largest single share of start-up (about 150 ms of ~700 ms
// of module loading). The build bundles what `Type` needs into one file, dist/vendor/typebox.js, and points
// dist's `import { Type } from 'typebox'` at it; from src/ (tests, `npm run dev`) the package is used as is.
import { build } from 'esbuild'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const IMPORT = /^import \{ Type \} from 'typebox';$/m
const ANY_IMPORT = /from 'typebox(\/[^']*)?'/

function jsFiles(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? jsFiles(p) : p.endsWith('.js') ? [p] : []
  })
}

export async function vendorTypebox(root, dist) {
  const target = join(dist, 'vendor', 'typebox.js')
  mkdirSync(dirname(target), { recursive: true })
  await build({
    stdin: { contents: "export { Type } from 'typebox'", resolveDir: root, loader: 'js' },
    bundle: true, format: 'esm', platform: 'node', target: ['node20'], outfile: target, logLevel: 'silent', legalComments: 'inline',
  })
  for (const file of jsFiles(dist)) {
    if (file === target) continue
    const text = readFileSync(file, 'utf8')
    if (!ANY_IMPORT.test(text)) continue
    // Anything but `import { Type }` would need more of TypeBox than the vendored file holds: say so.
    if (!IMPORT.test(text) || ANY_IMPORT.test(text.replace(IMPORT, ''))) {
      throw new Error(`${relative(root, file)} imports more of typebox than Type at run time; extend scripts/vendor-typebox.mjs`)
    }
    const spec = relative(dirname(file), target).replaceAll('\\', '/')
    writeFileSync(file, text.replace(IMPORT, `import { Type } from '${spec.startsWith('.') ? spec : `./${spec}`}';`))
  }
}
