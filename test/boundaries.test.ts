// The folders' import rules (scripts/check-boundaries.mjs, run by `npm run lint`): this project keeps them, and a
// tree that breaks each one, alone, is refused with the import named.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { it } from 'node:test'
import { tempDir } from './helpers/temp.ts'

const SCRIPT = join(import.meta.dirname, '../scripts/check-boundaries.mjs')
const check = (root?: string) => spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: 'utf8' })

/** A tree of one platform folder and two modules, each rule kept, plus `extra` files. */
function tree(extra: Record<string, string>): string {
  const root = tempDir('boundaries')
  const files: Record<string, string> = {
    'src/config.ts': 'export const loaded = 1\n',
    'src/app.ts': "import { a } from './modules/a/index.ts'\nimport { db } from './platform/db/db.ts'\nexport { a, db }\n",
    'src/platform/db/db.ts': "export const db = (c: { port: number }) => c.port\n",
    'src/modules/a/index.ts': "export { a } from './a.ts'\n",
    'src/modules/a/a.ts': "import { db } from '../../platform/db/db.ts'\nexport const a = db\n",
    'src/modules/b/b.ts': "import { a } from '../a/index.ts'\nexport const b = a\n",
    ...extra,
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

it('this project keeps the folders\' rules', () => {
  const run = check()
  assert.equal(run.status, 0, run.stderr)
})

it('a tree that keeps them passes; each broken alone is refused, naming the import', async (t) => {
  assert.equal(check(tree({})).status, 0)
  const broken: [string, Record<string, string>, RegExp][] = [
    ['the platform imports a module', { 'src/platform/db/x.ts': "import { a } from '../../modules/a/index.ts'\nexport const x = a\n" },
      /src\/platform\/db\/x\.ts imports \.\.\/\.\.\/modules\/a\/index\.ts: the platform imports no module/],
    ['the platform imports the composition', { 'src/platform/db/x.ts': "import { loaded } from '../../config.ts'\nexport const x = loaded\n" },
      /src\/platform\/db\/x\.ts imports \.\.\/\.\.\/config\.ts: the platform imports no module and nothing of the composition/],
    ['the platform imports a type of the composition', { 'src/platform/db/x.ts': "import type { Loaded } from '../../config.ts'\nexport type X = Loaded\n" },
      /src\/platform\/db\/x\.ts imports \.\.\/\.\.\/config\.ts: the platform imports no module and nothing of the composition/],
    ['a module reaches past another\'s entry', { 'src/modules/b/c.ts': "import { a } from '../a/a.ts'\nexport const c = a\n" },
      /src\/modules\/b\/c\.ts imports \.\.\/a\/a\.ts: another module is reached only through its entry, src\/modules\/a\/index\.ts/],
    ['a module imports the composition', { 'src/modules/b/c.ts': "import { a } from '../../app.ts'\nexport const c = a\n" },
      /src\/modules\/b\/c\.ts imports \.\.\/\.\.\/app\.ts: a module imports nothing of the composition/],
    ['two modules import each other', {
      'src/modules/a/d.ts': "import { b } from '../b/index.ts'\nexport const d = b\n",
      'src/modules/b/index.ts': "export { b } from './b.ts'\n",
    },
      /an import cycle between module:a, module:b/],
  ]
  for (const [name, files, message] of broken) {
    await t.test(name, () => {
      const run = check(tree(files))
      assert.equal(run.status, 1, run.stdout)
      assert.match(run.stderr, message)
    })
  }
})
