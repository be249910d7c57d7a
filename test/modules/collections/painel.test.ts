// GET /api/cobrancas/painel (issue 33): the collections' numbers of the day, each recomputed here from what the test
// did (two charges registered by a retorno, one paid today above its balance, one overdue with an instruction on its
// way, a line ignored), and another customer's counted nowhere.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { retornoSandbox240, type MovimentoSandbox } from '../../../src/modules/collections/sandbox/retorno240.ts'
import { issueToken } from '../../helpers/api-credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../operations/helpers.ts'

const BB = { nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567' }
const CONTA = { banco: '001' as const, agencia: '3064', conta: '123456', contaDigito: 'X', convenio: '1234567', inscricao: '11444777000161',
  empresa: 'FACTORING EXEMPLO' }

describe('/api/cobrancas/painel', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('counts the charges by state, the overdue, the paid today, the instructions on their way, the lines ignored, the money to identify', async () => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', BB))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const [t1, t2, t3] = (op.titulos as { id: string }[]).map((t) => t.id)
    const charge = async (id: string) => created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: id, conta_cobranca_id: account.id }, key()))
    const c1 = await charge(t1!)
    const c2 = await charge(t2!)
    const c3 = await charge(t3!)
    const { token } = await issueToken(ctx.db, office.clienteId, { escopos: ['cobranca'], clock, expiraEm: new Date('2027-06-30T00:00:00Z') })
    const get = async () => created(await ctx.app.inject({ url: '/api/cobrancas/painel', headers: { authorization: `Bearer ${token}` } }), 200)
    const send = (text: string) => ctx.app.inject({ method: 'POST', url: `/api/cnab/retornos?conta_cobranca_id=${account.id}`,
      payload: Buffer.from(text, 'latin1'), headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } })
    const mov = (c: { nosso_numero_sequencia: string, valor_centavos: number, vencimento: string }, m: Partial<MovimentoSandbox> & { codigo: string }) => ({
      sequencia: c.nosso_numero_sequencia, seuNumero: 'X', vencimento: c.vencimento, valorCentavos: BigInt(c.valor_centavos), ...m,
    })
    const total = (...cs: { valor_centavos: number }[]) => cs.reduce((s, c) => s + c.valor_centavos, 0)
    assert.deepEqual(await get(), {
      hoje: '2026-10-05', a_registrar: { quantidade: 3, valor_centavos: total(c1, c2, c3) }, registradas: { quantidade: 0, valor_centavos: 0 },
      vencidas: { quantidade: 0, valor_centavos: 0 }, liquidadas_hoje: { quantidade: 0, valor_centavos: 0 }, instrucoes_em_andamento: 0,
      retornos_aplicando: 0, linhas_ignoradas: 0, valores_a_identificar_centavos: 0,
    })

    // The bank registers two; on 2026-11-24 T2 is paid R$ 20,00 above its balance with R$ 180,00 of juros, and a line names no charge.
    assert.equal((await send(retornoSandbox240(CONTA, 1, '2026-10-06', [mov(c1, { codigo: '02', dataOcorrencia: '2026-10-06' }),
      mov(c2, { codigo: '02', dataOcorrencia: '2026-10-06' })]))).statusCode, 201)
    clock.set('2026-11-24T15:00:00Z')
    created(await office.operador.call('POST', `/api/cobrancas/${c1.id}/instrucoes`, { instrucao: 'protestar' }, key()))
    const paid = await send(retornoSandbox240(CONTA, 2, '2026-11-24', [
      mov(c2, { codigo: '06', pagoCentavos: 2_520_000n, jurosMultaCentavos: 18_000n, dataOcorrencia: '2026-11-24' }),
      { codigo: '06', sequencia: '999', seuNumero: 'X', vencimento: '2026-11-20', valorCentavos: 100n, pagoCentavos: 100n, dataOcorrencia: '2026-11-24' },
    ]))
    assert.equal(paid.statusCode, 201, paid.body)
    assert.deepEqual(await get(), {
      hoje: '2026-11-24', a_registrar: { quantidade: 1, valor_centavos: total(c3) }, registradas: { quantidade: 1, valor_centavos: total(c1) },
      vencidas: { quantidade: 1, valor_centavos: total(c1) }, liquidadas_hoje: { quantidade: 1, valor_centavos: 2_520_000 }, instrucoes_em_andamento: 1,
      retornos_aplicando: 0, linhas_ignoradas: 1, valores_a_identificar_centavos: 2_520_000 - 18_000 - total(c2),
    })

    // Another customer sees its own zeros.
    const other = await backOffice(ctx.db, ctx.app, clock)
    const theirs = created(await other.operador.call('GET', '/api/cobrancas/painel'), 200)
    assert.deepEqual([theirs.registradas.quantidade, theirs.a_registrar.quantidade, theirs.linhas_ignoradas, theirs.valores_a_identificar_centavos],
      [0, 0, 0, 0])
  })
})
