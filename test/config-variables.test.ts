// The settings' schema (src/config.ts composes the areas' own) is the one list of variables: compose files and
// manifests are checked against CONFIG_VARIABLES, no module reads the environment around it, and the README's
// configuration table names exactly its variables, each with the default the schema gives.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { CONFIG_VARIABLES, SETTINGS } from '../src/config.ts'
import type { WhenUnset } from '../src/platform/settings/kinds.ts'
import { envSettings } from '../src/platform/settings/load.ts'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : []
  })
}

const READS = /\benv\.([A-Z][A-Z0-9_]{2,})|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g

function readsOf(text: string): string[] {
  return [...text.matchAll(READS)].map((m) => (m[1] ?? m[2])!)
}

it('no module reads a variable around the schema (src/platform/settings/ reads them all)', () => {
  assert.deepEqual(readsOf('const a = process.env.SMTP_URL, b = env["PORT"], c = env.X'), ['SMTP_URL', 'PORT'], 'the scan still sees a read')
  const around = sources('src').filter((f) => !f.startsWith(join('src', 'settings'))).flatMap((f) => readsOf(readFileSync(f, 'utf8')).map((v) => `${f}: ${v}`))
  assert.deepEqual(around, [], 'declare the variable in its area\'s settings.ts and take it from Config')
})

/** The README's configuration table: each variable with its row's default cell (its own part when a row names several). */
function readmeDefaults(readme: string): Map<string, string> {
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  const defaults = new Map<string, string>()
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim())
    const names = [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)
    // "`60000`, `21600000`" gives each of two variables its own; "empty strings" is every one's.
    const parts = cells.at(-1)!.split(/,\s+/)
    names.forEach((name, i) => {
      assert.ok(!defaults.has(name), `${name} has two rows in the README`)
      defaults.set(name, parts.length === names.length ? parts[i]! : cells.at(-1)!)
    })
  }
  return defaults
}

function problem(name: string, whenUnset: WhenUnset, cell: string): string | undefined {
  if ('value' in whenUnset && whenUnset.value !== '') {
    return cell.startsWith(`\`${whenUnset.value}\``) ? undefined : `${name}: the README says "${cell}", the schema \`${whenUnset.value}\``
  }
  const means = 'means' in whenUnset ? whenUnset.means : 'empty'
  return cell.replaceAll('`', '').includes(means) ? undefined : `${name}: the README says "${cell}", the schema "${means}"`
}

describe('the README\'s configuration table', () => {
  const table = readmeDefaults(readFileSync('README.md', 'utf8'))

  it('names every variable of the schema, and no other', () => {
    assert.ok(table.size >= 40, `only ${table.size} variables found: the table's layout changed`)
    assert.deepEqual(CONFIG_VARIABLES.filter((v) => !table.has(v)), [], 'in the schema but not in the README\'s table')
    assert.deepEqual([...table.keys()].filter((v) => !CONFIG_VARIABLES.includes(v)), [], 'in the README\'s table but not in the schema')
  })

  it('gives each the default the schema gives', () => {
    const wrong = envSettings(SETTINGS).filter((s) => table.has(s.env)).map((s) => problem(s.env, s.whenUnset, table.get(s.env)!))
    assert.deepEqual(wrong.filter(Boolean), [])
  })

  it('a changed default is seen', () => {
    assert.match(problem('PORT', { value: '3000' }, '`8080`') ?? '', /README says "`8080`", the schema `3000`/)
    assert.match(problem('METRICS_PORT', { means: 'off' }, '`9464`') ?? '', /the schema "off"/)
    assert.equal(problem('PORT', { value: '3000' }, '`3000` (any free one with 0)'), undefined)
  })
})
