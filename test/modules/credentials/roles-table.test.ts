// The README's table of roles and scopes says what the code enforces: one row per scope of SCOPES, one column per
// role of PAPEIS, each cell the role's access (ACESSO) to that scope's area.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { it } from 'node:test'
import { ACESSO, PAPEIS } from '../../../src/modules/credentials/roles.ts'
import { SCOPES } from '../../../src/modules/credentials/scopes.ts'

const README = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8')

it('the README\'s roles table is ACESSO, cell by cell', () => {
  const start = README.indexOf('<!-- roles-table:')
  assert.ok(start > 0, 'the roles table is marked in the README')
  const lines = README.slice(start).split('\n').slice(1).filter((l, i, all) => l.startsWith('|') && all.slice(0, i).every((x) => x.startsWith('|')))
  const [header, , ...rows] = lines.map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
  assert.deepEqual(header!.slice(2), [...PAPEIS])
  assert.deepEqual(rows.map((r) => r[0]), SCOPES.map((s) => `\`${s}\``))
  const word = { escrever: 'changes', ler: 'reads' } as const
  for (const row of rows) {
    const scope = row[0]!.slice(1, -1) as (typeof SCOPES)[number]
    PAPEIS.forEach((papel, i) => {
      const access = ACESSO[papel][scope]
      assert.equal(row[2 + i], access ? word[access] : '—', `${scope} for ${papel}`)
    })
  }
})
