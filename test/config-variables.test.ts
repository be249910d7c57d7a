// CONFIG_VARIABLES is the list compose files and manifests are checked against: it must hold every variable
// the code reads, and the README's configuration table must name each, so the three never drift apart.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { it } from 'node:test'
import { CONFIG_VARIABLES } from '../src/config.ts'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : []
  })
}

const READS = /(?:\b(?:str|int|url|cidrList|originList)\((?:env, )?'([A-Z][A-Z0-9_]+)')|(?:\benv\.([A-Z][A-Z0-9_]{2,}))|(?:\benv\[['"]([A-Z][A-Z0-9_]+)['"]\])/g

it('every variable the code reads is in CONFIG_VARIABLES, and the README documents each', () => {
  const read = new Set<string>()
  for (const file of sources('src')) {
    for (const m of readFileSync(file, 'utf8').matchAll(READS)) read.add((m[1] ?? m[2] ?? m[3])!)
  }
  assert.ok(read.size >= 20, `the scan found only ${[...read].join(', ')}: the pattern no longer matches how config is read`)
  const listed = new Set<string>(CONFIG_VARIABLES)
  assert.deepEqual([...read].filter((v) => !listed.has(v)), [], 'read by the code but missing from CONFIG_VARIABLES')
  const readme = readFileSync('README.md', 'utf8')
  assert.deepEqual(CONFIG_VARIABLES.filter((v) => !readme.includes(`\`${v}\``)), [], 'in CONFIG_VARIABLES but not in the README')
})
