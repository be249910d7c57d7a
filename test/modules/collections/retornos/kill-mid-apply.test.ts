// A process killed (SIGKILL) while it applies a large retorno (issue 33: "a retorno applied while the process is
// killed halfway resumes without posting a line twice"). The built service takes a file of 2,001 títulos (202, applied
// in the background); once some batches have committed, another session holds the ledger's table, so the next batch
// waits inside its transaction, and the process is killed there. Every line is then applied with its entry or still
// pending without one; the retornos job goes on from the first pending line, and at the end each line has posted
// exactly once: 2,000 fees of one centavo and one liquidation.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pg from 'pg'
import { addDays } from '../../../../src/modules/calendar/civil-date.ts'
import { retornosJob } from '../../../../src/modules/collections/retornos/job.ts'
import { retornoSandbox240 } from '../../../../src/modules/collections/sandbox/retorno240.ts'
import { issueToken } from '../../../helpers/api-credentials.ts'
import { rowsAs } from '../../../helpers/credentials.ts'
import { onPostgresOnly } from '../../../helpers/database.ts'
import { defer, useTestApp } from '../../../helpers/fixture.ts'
import { spawnService, waitForOutput } from '../../../helpers/service-process.ts'
import { tempDir } from '../../../helpers/temp.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

const skip = onPostgresOnly('a second session holding a table lock needs PostgreSQL: runs in the PostgreSQL suite (DATABASE_URL set)')
const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }
const FEES = 2000
// FEBRABAN's codes of an instruction confirmed (C044), which Banco do Brasil follows.
const CONFIRMED = '07 08 12 13 14 19 20 27 38 39 40 41 42 43 46 47 48 49 54 55 56 57 58 59 60 61 64 65'.split(' ')

describe('a process killed while it applies a retorno', { skip }, () => {
  // The example's operation is of 2026-10-05: made at that time; the file is sent to the built service now.
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('leaves each line applied with its entry or pending without one; the job goes on and each line posts once', { timeout: 180_000 }, async (t) => {
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const t2 = (op.titulos as { id: string }[])[1]!.id
    const charge = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: t2, conta_cobranca_id: account.id }, key()))
    const rows = <R>(q: string) => rowsAs<R>(ctx.db, office.clienteId, q)
    const [{ n: entriesBefore }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM lancamentos') as [{ n: number }]

    // FEES notices of an instruction confirmed, each with a fee of a centavo and each its own occurrence (the bank's
    // code and its day, from the charge's first day on), then the charge's payment.
    const base = { sequencia: charge.nosso_numero_sequencia, seuNumero: 'T2', vencimento: charge.vencimento, valorCentavos: BigInt(charge.valor_centavos) }
    const file = retornoSandbox240(CONTA, 9, '2026-11-24', [
      ...Array.from({ length: FEES }, (_, i) => ({ ...base, codigo: CONFIRMED[i % CONFIRMED.length]!, tarifaCentavos: 1n,
        dataOcorrencia: addDays('2026-10-06', Math.floor(i / CONFIRMED.length)) })),
      { ...base, codigo: '06', pagoCentavos: BigInt(charge.valor_centavos), dataOcorrencia: '2026-11-24' },
    ])
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'] })
    const service = await spawnService(t, { DATABASE_URL: ctx.url!, DATA_DIR: tempDir('kill-retorno'), MAIL_WORKER: 'off',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1/32' })
    await waitForOutput(service, /"msg":"service ready"/)

    const holder = new pg.Client({ connectionString: ctx.url! })
    await holder.connect()
    defer(t, () => holder.end())
    const sent = await fetch(`${service.base}/api/cnab/retornos?conta_cobranca_id=${account.id}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: Buffer.from(file, 'latin1'),
    })
    assert.equal(sent.status, 202, await sent.clone().text())
    const { id } = await sent.json() as { id: string }

    // Some batches committed; then the ledger's table is held, and the next batch waits on it inside its transaction.
    for (let waited = 0; ; waited += 20) {
      const [r] = await rows<{ aplicadas: number }>(`SELECT aplicadas FROM retornos WHERE id = '${id}'`)
      if (r!.aplicadas > 0) break
      assert.ok(waited < 60_000, `nothing was applied:\n${service.output()}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    await holder.query('BEGIN')
    await holder.query('LOCK TABLE lancamentos IN SHARE ROW EXCLUSIVE MODE')
    for (let waited = 0; ; waited += 50) {
      const { rows: w } = await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE c.relname = 'lancamentos' AND NOT l.granted`)
      if (w[0]!.n > 0) break
      assert.ok(waited < 20_000, `the application never reached the ledger again:\n${service.output()}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    process.kill(-service.child.pid!, 'SIGKILL')
    await service.exited
    await holder.query('ROLLBACK')

    // Halfway: each applied line has its entry, and no pending one has.
    const [half] = await rows<{ aplicadas: number, pendentes: number, entries: number, estado: string }>(`SELECT r.aplicadas, r.estado,
        (SELECT count(*)::int FROM retorno_linhas WHERE retorno_id = r.id AND resultado = 'pendente') AS pendentes,
        (SELECT count(*)::int FROM lancamentos WHERE origem_id = r.id) AS entries
      FROM retornos r WHERE r.id = '${id}'`)
    assert.equal(half!.estado, 'aplicando')
    assert.ok(half!.aplicadas > 0 && half!.pendentes > 0, JSON.stringify(half))
    assert.equal(half!.entries, half!.aplicadas)
    assert.equal(half!.aplicadas + half!.pendentes, FEES + 1)

    // The job goes on (the killed session's lock may outlive the process for a moment: it steps back until then).
    const job = retornosJob({ db: ctx.db })
    for (let runs = 0; ; runs++) {
      await job.run(new Date())
      const [r] = await rows<{ estado: string }>(`SELECT estado FROM retornos WHERE id = '${id}'`)
      if (r!.estado === 'aplicado') break
      assert.ok(runs < 100, 'the job never finished the file')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const [done] = await rows<{ aplicadas: number, ignoradas: number, entries: number, fees: string }>(`SELECT r.aplicadas, r.ignoradas,
        (SELECT count(*)::int FROM lancamentos WHERE origem_id = r.id) AS entries,
        (SELECT sum(debito_centavos)::text FROM lancamento_linhas x JOIN lancamentos l ON l.id = x.lancamento_id
          WHERE l.origem_id = r.id AND x.conta = 'despesas_bancarias') AS fees
      FROM retornos r WHERE r.id = '${id}'`)
    assert.deepEqual(done, { aplicadas: FEES + 1, ignoradas: 0, entries: FEES + 1, fees: String(FEES) })
    const [titulo] = await rows<{ estado: string, saldo: string }>(`SELECT estado, saldo_centavos::text AS saldo FROM titulos WHERE id = '${t2}'`)
    assert.deepEqual(titulo, { estado: 'liquidado', saldo: '0' })
    const [{ n: entriesAfter }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM lancamentos') as [{ n: number }]
    assert.equal(entriesAfter - entriesBefore, FEES + 1)
  })
})
