import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { describe, it } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import { purgePersonalData, retentionJob } from '../../../src/modules/contact/retention.ts'
import { makeContactStore } from '../../../src/modules/contact/store.ts'
import { DEFAULT_SUBJECTS } from '../../../src/modules/contact/subjects.ts'
import { contato, outbox } from '../../../src/platform/db/schema.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'
import { runJobOnce } from '../../helpers/jobs.ts'

describe('retention without an operator', () => {
  const tdb = useTestDatabase()

  it('the scheduled pass erases delivered contacts past retention and spares waiting ones', async () => {
    const store = makeContactStore(tdb.db.orm, { now: () => new Date() })
    const submit = (mensagem: string) => store.submit({
      fields: { nome: 'Rui Velho', email: 'rui@antigo.com.br', mensagem, empresa: '', telefone: '', site: '' },
      subject: DEFAULT_SUBJECTS[0]!, requestId: 'r', ip: '192.0.2.9',
    })
    const delivered = await submit('mensagem entregue há muito tempo')
    const waiting = await submit('mensagem antiga ainda na fila')
    await tdb.db.orm.update(outbox).set({ estado: 'enviado' }).where(eq(outbox.protocolo, delivered.protocolo))
    await tdb.db.orm.update(contato).set({ criadoEm: sql`now() - interval '400 days'` })
    const logs: object[] = []
    const run = await runJobOnce(tdb.db, retentionJob({ orm: tdb.db.orm, days: 365, mailDir: tmpdir(), log: { info: (o) => logs.push(o) } }))
    assert.deepEqual([run?.resultado, run?.contagem], ['ok', 1], 'the run is recorded with what it erased')
    const rows = await tdb.db.orm.select().from(contato)
    const byProtocolo = Object.fromEntries(rows.map((r) => [r.protocolo, r]))
    assert.equal(byProtocolo[delivered.protocolo]!.nome, null)
    assert.equal(byProtocolo[waiting.protocolo]!.nome, 'Rui Velho', 'a message still waiting keeps what it needs to be sent')
    assert.deepEqual(logs, [{ apagados: 1, dias: 365 }])
  })

  it('spam (never queued for delivery) past retention is erased too; recent spam is kept', async () => {
    const store = makeContactStore(tdb.db.orm, { now: () => new Date() })
    const fields = (mensagem: string) => ({ nome: 'Robô de Ofertas', email: 'bot@spam.example', mensagem, empresa: '', telefone: '', site: '' })
    const old = await store.submit({
      fields: fields('spam antigo, sem fila de entrega'), subject: DEFAULT_SUBJECTS[0]!, requestId: 's1', ip: '192.0.2.66', spam: 'honeypot',
    })
    const recent = await store.submit({
      fields: fields('spam recente, ainda guardado'), subject: DEFAULT_SUBJECTS[0]!, requestId: 's2', ip: '192.0.2.66', spam: 'rapido',
    })
    await tdb.db.orm.update(contato).set({ criadoEm: sql`now() - interval '400 days'` }).where(eq(contato.protocolo, old.protocolo))
    assert.equal((await tdb.db.orm.select().from(outbox).where(eq(outbox.protocolo, old.protocolo))).length, 0)
    await purgePersonalData(tdb.db.orm, 365, new Date(), tmpdir())
    const rows = Object.fromEntries((await tdb.db.orm.select().from(contato)).map((r) => [r.protocolo, r]))
    assert.deepEqual(
      [rows[old.protocolo]!.nome, rows[old.protocolo]!.email, rows[old.protocolo]!.mensagem, rows[old.protocolo]!.spam],
      [null, null, null, 'honeypot'],
    )
    assert.notEqual(rows[old.protocolo]!.dadosApagadosEm, null)
    assert.equal(rows[recent.protocolo]!.nome, 'Robô de Ofertas')
  })
})
