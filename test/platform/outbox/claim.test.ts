// Which message a worker takes next: a lease run out before any due message, due messages by their time, and
// nothing that is not yet due or is held by a live lease.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { queryRows } from '../../../src/platform/db/database.ts'
import { claimNext } from '../../../src/platform/outbox/claim.ts'
import { onPostgresOnly } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const NOW = new Date('2026-11-27T12:00:00Z')
const LEASE_MS = 60_000
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000)

describe('claiming the next message', () => {
  const tdb = useTestDatabase()

  async function row(protocolo: string, estado: string, due: Date, updated: Date): Promise<void> {
    await queryRows(tdb.db.orm, sql`INSERT INTO outbox (protocolo, destino, request_id, assunto_email, texto, estado, proxima_tentativa_em, atualizado_em)
      VALUES (${protocolo}, 'comercial@factoring.example', ${`req-${protocolo}`}, 'Assunto', 'Texto', ${estado}, ${due}, ${updated})`)
  }
  const claimed = async () => (await claimNext(tdb.db.orm, NOW, LEASE_MS))?.protocolo

  it('a lease run out first, then due messages oldest first; none not yet due, none under a live lease', async () => {
    await row('CT-20261127-00000001', 'pendente', at(-30), at(-30))
    await row('CT-20261127-00000002', 'pendente', at(-90), at(-90))
    await row('CT-20261127-00000003', 'pendente', at(30), at(-1))
    await row('CT-20261127-00000004', 'enviando', at(-300), at(-10))
    await row('CT-20261127-00000005', 'enviando', at(-10), at(-120))
    await row('CT-20261127-00000006', 'enviado', at(-500), at(-500))
    assert.equal(await claimed(), 'CT-20261127-00000005', 'its worker held it two minutes: the lease is over')
    assert.equal(await claimed(), 'CT-20261127-00000002')
    assert.equal(await claimed(), 'CT-20261127-00000001')
    assert.equal(await claimed(), undefined, 'one not due for 30 s, one under a lease of 10 s, one sent')
    const [taken] = await queryRows<{ tentativas: number, estado: string }>(tdb.db.orm,
      sql`SELECT tentativas, estado FROM outbox WHERE protocolo = 'CT-20261127-00000005'`)
    assert.deepEqual(taken, { tentativas: 1, estado: 'enviando' })
  })

  it('two workers at once: a row another holds is passed over for the next, never taken twice', { skip: onPostgresOnly('two sessions at once') }, async (t) => {
    await row('CT-20261127-0000000A', 'enviando', at(-60), at(-120))
    await row('CT-20261127-0000000B', 'pendente', at(-30), at(-30))
    // The other worker, inside its claim: it holds the run-out lease's row until it commits.
    const other = new pg.Client({ connectionString: tdb.url! })
    await other.connect()
    t.after(() => other.end())
    await other.query('BEGIN')
    await other.query(`SELECT id FROM outbox WHERE protocolo = 'CT-20261127-0000000A' FOR UPDATE`)
    assert.equal(await claimed(), 'CT-20261127-0000000B')
    assert.equal(await claimed(), undefined, 'the held row is skipped, not waited for; the other is taken')
    await other.query('COMMIT')
    assert.equal(await claimed(), 'CT-20261127-0000000A')
  })
})
