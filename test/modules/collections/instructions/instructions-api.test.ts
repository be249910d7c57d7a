// POST /api/cobrancas/{id}/instrucoes (issue 33): an instruction asked of a registered charge is stored `pendente`
// and answered at once; under an `api` account the worker sends it to the sandbox bank over real HTTP and records its
// answer (confirmed, or refused with the bank's reason); a bank that is down loses nothing, and a charge's
// instructions reach it in the order asked; under a `cnab` account it waits for the remessa. Every refusal has its
// code or its field; another customer's charge is not found.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { httpBankAdapter } from '../../../../src/modules/collections/bank/http-adapter.ts'
import validator from 'boleto-brasileiro-validator'
import { mod10 } from '../../../../src/modules/collections/boleto/modulos.ts'
import { registerDue } from '../../../../src/modules/collections/charges/registration.ts'
import { instructionConfirmed } from '../../../../src/modules/collections/instructions/effects.ts'
import { sendDue, type SendingDeps } from '../../../../src/modules/collections/instructions/sending.ts'
import { startSandboxBank, type SandboxBank } from '../../../../src/modules/collections/sandbox/bank-server.ts'
import { withTenant } from '../../../../src/platform/tenancy/tenancy.ts'
import { auditRows, rowsAs } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, key, settableClock } from '../../operations/helpers.ts'

let accounts = 0
const itau = (over: object = {}) => {
  const conta = String(67800 + ++accounts)
  return { nome: `Itaú ${conta}`, banco: '341', agencia: '1234', conta, conta_digito: String(mod10(`1234${conta}`)), carteira: '109', transporte: 'api',
    ...over }
}

type Res = { statusCode: number, body: string, json(): unknown }
const refused = (res: Res, status: number, body: object) => assert.deepEqual([res.statusCode, res.json()], [status, body], res.body)

describe('instructions after registration', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  let bank: SandboxBank
  before(async () => { bank = await startSandboxBank({ token: 'segredo' }) })
  after(async () => { await bank.close() })
  const adapter = () => httpBankAdapter({ baseUrl: bank.url, token: 'segredo', timeoutMs: 2000 })
  const deps: SendingDeps = { db: undefined as never, retry: { baseMs: 60_000, maxMs: 3_600_000 }, random: () => 0.5, adapterFor: () => adapter() }
  const talk = () => ({ ...deps, db: ctx.db })

  /** A customer, a confirmed account, and its título `i` charged; registered at the bank unless `registrar` is false. */
  const world = async (conta: object = itau(), i = 1, registrar = true) => {
    clock.set(EXAMPLE_NOW)
    const office = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(office.admin.call)
    const account = created(await office.operador.call('POST', '/api/contas-cobranca', conta))
    created(await office.aprovador.call('POST', `/api/contas-cobranca/${account.id}/confirmacao`, undefined, key()), 200)
    const charge = created(await office.operador.call('POST', '/api/cobrancas', { titulo_id: op.titulos[i].id, conta_cobranca_id: account.id }, key()))
    if (registrar) assert.ok((await registerDue(talk(), clock.now())).registradas >= 1)
    const ask = (body: object, k = key()) => office.operador.call('POST', `/api/cobrancas/${charge.id}/instrucoes`, body, k)
    const list = async () => created(await office.aprovador.call('GET', `/api/cobrancas/${charge.id}/instrucoes`), 200).itens
    return { office, account, charge, ask, list }
  }

  it('a new due date under an api account: pendente at once, then confirmed by the bank, its answer kept; audited', async () => {
    const w = await world()
    const made = created(await w.ask({ instrucao: 'alteracao_vencimento', vencimento: '2026-12-20' }))
    assert.deepEqual({ ...made, id: undefined, criado_em: undefined, atualizado_em: undefined }, {
      id: undefined, cobranca_id: w.charge.id, instrucao: 'alteracao_vencimento', vencimento: '2026-12-20', abatimento_centavos: null,
      iof_centavos: 6150, iof_dias: 30,
      transporte: 'api', estado: 'pendente', tentativas: 0, erro: null, banco_resposta: null, criado_em: undefined, atualizado_em: undefined,
    })
    assert.deepEqual(await sendDue(talk(), clock.now()), { confirmadas: 1, rejeitadas: 0, adiadas: 0 })
    const [read] = await w.list()
    assert.equal(read.estado, 'confirmada')
    assert.deepEqual(read.banco_resposta, { sandbox: true, nosso_numero: w.charge.nosso_numero_sequencia, situacao: 'registrada',
      instrucao: 'alteracao_vencimento' })
    assert.deepEqual(await sendDue(talk(), clock.now()), { confirmadas: 0, rejeitadas: 0, adiadas: 0 }, 'sent once')
    const audit = (await auditRows(ctx.db, w.office.clienteId)).filter((r) => r.acao === 'cobranca.instrucao')
    assert.deepEqual(audit.map((r) => r.alvo_id), [made.id])
  })

  it('a confirmed extension posts its IOF complementar once, re-dates the título and its boleto, and spreads the deságio', async () => {
    const w = await world()
    // T2: 2,500,000 centavos due 2026-11-20 (a holiday: paid 2026-11-23), bought 2026-10-05 by a company ('pj'), whose
    // daily IOF rate in force is 0.0082 % (Decreto 12.499/2025). Moved to 2026-12-20 (a Sunday: paid 2026-12-21), it
    // bears 76 days of IOF instead of 46: 30 days × 0.000082 × 2,500,000 = 6,150 centavos.
    const titulo = async () => (await rowsAs<{ vencimento: string, dias: number }>(ctx.db, w.office.clienteId,
      `SELECT vencimento::text AS vencimento, desagio_dias AS dias FROM titulos WHERE id = '${w.charge.titulo_id}'`))[0]!
    const before = await titulo()
    const made = created(await w.ask({ instrucao: 'alteracao_vencimento', vencimento: '2026-12-20' }))
    assert.deepEqual([made.iof_centavos, made.iof_dias], [6150, 30])
    assert.deepEqual(await titulo(), before, 'nothing moves before the bank confirms')
    assert.deepEqual(await sendDue(talk(), clock.now()), { confirmadas: 1, rejeitadas: 0, adiadas: 0 })

    const entries = await rowsAs<{ conta: string, d: string, c: string, cedente: string | null }>(ctx.db, w.office.clienteId, `SELECT x.conta,
      x.debito_centavos::text AS d, x.credito_centavos::text AS c, x.cedente_id::text AS cedente FROM lancamento_linhas x
      JOIN lancamentos l ON l.id = x.lancamento_id WHERE l.origem_tipo = 'instrucao' AND l.origem_id = '${made.id}' ORDER BY x.conta`)
    assert.deepEqual(entries.map((e) => [e.conta, e.d, e.c]), [['conta_grafica_cedentes', '6150', '0'], ['iof_a_recolher', '0', '6150']])
    assert.ok(entries[0]!.cedente, 'the cedente\'s conta gráfica is debited')
    // 2026-11-23 to 2026-12-21: 28 more days over which the deságio is earned.
    assert.deepEqual(await titulo(), { vencimento: '2026-12-20', dias: before.dias + 28 })
    const charge = created(await w.office.aprovador.call('GET', `/api/cobrancas/${w.charge.id}`), 200)
    // The fator de vencimento of 2026-12-20: 1000 on 2025-02-22, plus the 666 days between.
    assert.equal(charge.vencimento, '2026-12-20')
    assert.equal(charge.codigo_barras.slice(5, 9), '1666')
    assert.equal(charge.codigo_barras.slice(19), w.charge.codigo_barras.slice(19), 'the same campo livre')
    assert.equal(charge.codigo_barras.slice(9, 19), w.charge.codigo_barras.slice(9, 19), 'the same value')
    assert.ok(validator.boletoBancarioCodigoBarras(charge.codigo_barras) && validator.boletoBancarioLinhaDigitavel(charge.linha_digitavel))

    // Its effects run again (a second worker's answer, a retorno reporting it), nothing moves twice.
    await withTenant(ctx.db, w.office.clienteId, (tx) => instructionConfirmed(tx, made.id, clock.now()))
    assert.deepEqual(await titulo(), { vencimento: '2026-12-20', dias: before.dias + 28 })
    const [row] = await rowsAs<{ n: number }>(ctx.db, w.office.clienteId, `SELECT count(*)::int AS n FROM lancamentos WHERE origem_id = '${made.id}'`)
    assert.equal(row!.n, 1)
    const [balance] = await rowsAs<{ d: string, c: string }>(ctx.db, w.office.clienteId,
      'SELECT sum(debito_centavos)::text AS d, sum(credito_centavos)::text AS c FROM lancamento_linhas')
    assert.equal(balance!.d, balance!.c, 'the trial balance closes')
  })

  it('loses nothing while the bank is down, and sends a charge\'s instructions in the order asked', async () => {
    const w = await world()
    const first = created(await w.ask({ instrucao: 'abatimento', abatimento_centavos: 50_000 }))
    const second = created(await w.ask({ instrucao: 'baixa' }))
    bank.falhar(1)
    assert.deepEqual(await sendDue(talk(), clock.now()), { confirmadas: 0, rejeitadas: 0, adiadas: 1 }, 'the baixa waits behind the abatimento')
    let [a, b] = await w.list()
    assert.deepEqual([a.id, a.estado, a.tentativas, a.erro, b.id, b.estado], [first.id, 'pendente', 1, 'o banco respondeu 503', second.id, 'pendente'])
    assert.deepEqual(await sendDue(talk(), new Date(clock.now().getTime() + 44_000)), { confirmadas: 0, rejeitadas: 0, adiadas: 0 }, 'not before its time')
    assert.deepEqual(await sendDue(talk(), new Date(clock.now().getTime() + 46_000)), { confirmadas: 1, rejeitadas: 0, adiadas: 0 })
    assert.deepEqual(await sendDue(talk(), new Date(clock.now().getTime() + 47_000)), { confirmadas: 1, rejeitadas: 0, adiadas: 0 })
    ;[a, b] = await w.list()
    assert.deepEqual([a.estado, b.estado, (b.banco_resposta as { situacao: string }).situacao], ['confirmada', 'confirmada', 'baixada'])
    // Confirmed, the abatimento is posted once (the cedente's conta gráfica debited, the título's balance lowered); the baixa closes the charge.
    const entries = await rowsAs<{ conta: string, d: string, c: string }>(ctx.db, w.office.clienteId, `SELECT x.conta, x.debito_centavos::text AS d,
      x.credito_centavos::text AS c FROM lancamento_linhas x JOIN lancamentos l ON l.id = x.lancamento_id WHERE l.origem_tipo = 'instrucao' ORDER BY x.conta`)
    assert.deepEqual(entries, [{ conta: 'conta_grafica_cedentes', d: '50000', c: '0' }, { conta: 'direitos_creditorios', d: '0', c: '50000' }])
    const [t] = await rowsAs<{ saldo: string }>(ctx.db, w.office.clienteId, `SELECT saldo_centavos::text AS saldo FROM titulos
      WHERE id = '${w.charge.titulo_id}'`)
    assert.equal(t!.saldo, String(w.charge.valor_centavos - 50_000))
    assert.equal(created(await w.office.aprovador.call('GET', `/api/cobrancas/${w.charge.id}`), 200).estado, 'baixada')
  })

  it('loses nothing while the bank is slow: past the timeout the instruction waits, and its retry is not taken for a second one', async () => {
    const w = await world()
    // The slow bank carries out the baixa and its answer is lost; asked again by the instruction's id, it answers as
    // the first time, not "boleto baixada".
    created(await w.ask({ instrucao: 'baixa' }))
    const impatient = { ...talk(), adapterFor: () => httpBankAdapter({ baseUrl: bank.url, token: 'segredo', timeoutMs: 100 }) }
    bank.lentidao(400)
    try {
      assert.deepEqual(await sendDue(impatient, clock.now()), { confirmadas: 0, rejeitadas: 0, adiadas: 1 })
    } finally {
      bank.lentidao(0)
    }
    const [waiting] = await w.list()
    assert.deepEqual([waiting.estado, waiting.tentativas, waiting.erro], ['pendente', 1, 'sem resposta em 100 ms'])
    await new Promise((r) => setTimeout(r, 500))
    const atBank = await adapter().consultar({ conta: { banco: '341', agencia: '1234', conta: w.account.conta, contaDigito: w.account.conta_digito,
      carteira: '109' }, nossoNumero: w.charge.nosso_numero_sequencia })
    assert.ok(atBank.ok && atBank.situacao === 'baixada', 'the bank did it; only its answer was lost')
    assert.deepEqual(await sendDue(impatient, new Date(clock.now().getTime() + 46_000)), { confirmadas: 1, rejeitadas: 0, adiadas: 0 })
    const [done] = await w.list()
    assert.deepEqual([done.estado, done.banco_resposta.situacao], ['confirmada', 'baixada'])
  })

  it('keeps the bank\'s refusal as final, with its reason', async () => {
    const w = await world()
    // The sacado paid at the bank meanwhile: the bank takes no instruction for a boleto it liquidated.
    const res = await fetch(`${bank.url}/boletos/${w.charge.nosso_numero_sequencia}/liquidacao?conta=1234-${(w.account as { conta: string }).conta}`,
      { method: 'POST', headers: { authorization: 'Bearer segredo' } })
    assert.equal(res.status, 200)
    created(await w.ask({ instrucao: 'protestar' }))
    assert.deepEqual(await sendDue(talk(), clock.now()), { confirmadas: 0, rejeitadas: 1, adiadas: 0 })
    const [read] = await w.list()
    assert.equal(read.estado, 'rejeitada')
    assert.deepEqual([read.banco_resposta.codigo, read.banco_resposta.motivo], ['boleto_encerrado', 'boleto liquidada: não aceita instrução'])
  })

  it('under a cnab account, waits for the remessa: the worker does not send it', async () => {
    const w = await world(itau({ transporte: 'cnab' }), 1, false)
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE cobrancas SET estado = \'registrada\' WHERE id = $1', [w.charge.id]))
    const made = created(await w.ask({ instrucao: 'alteracao_vencimento', vencimento: '2026-12-06' }))
    assert.equal(made.transporte, 'cnab')
    await sendDue(talk(), clock.now())
    assert.deepEqual((await w.list()).map((i: { estado: string }) => i.estado), ['pendente'])
  })

  it('refuses what the charge cannot take, each with its code or at its field', async () => {
    const waiting = await world(itau({ transporte: 'cnab' }), 0, false)
    refused(await waiting.ask({ instrucao: 'baixa' }), 409, { detail: 'cobranca_nao_registrada', estado: 'a_registrar' })

    const w = await world(itau(), 1)
    // T2: 2,500,000 centavos, due 2026-11-20; today 2026-10-05 in Brasília.
    const fields = async (body: object) => {
      const res = await w.ask(body)
      assert.equal(res.statusCode, 422, res.body)
      return (res.json() as { detail: { loc: string[], type: string }[] }).detail.map((e) => [e.loc.join('.'), e.type])
    }
    assert.deepEqual(await fields({ instrucao: 'alteracao_vencimento' }), [['body.vencimento', 'missing']])
    assert.deepEqual(await fields({ instrucao: 'alteracao_vencimento', vencimento: '2026-10-05' }), [['body.vencimento', 'greater_than']])
    // A prorrogação extends: a date before the current due date is refused (it would charge no IOF; red team).
    assert.deepEqual(await fields({ instrucao: 'alteracao_vencimento', vencimento: '2026-11-19' }), [['body.vencimento', 'greater_than']])
    assert.deepEqual(await fields({ instrucao: 'alteracao_vencimento', vencimento: '2027-11-21' }), [['body.vencimento', 'less_than_equal']])
    assert.deepEqual(await fields({ instrucao: 'alteracao_vencimento', vencimento: '2026-02-30' }), [['body.vencimento', 'date_parsing']])
    assert.deepEqual(await fields({ instrucao: 'baixa', vencimento: '2026-12-01', abatimento_centavos: 1 }),
      [['body.vencimento', 'extra_forbidden'], ['body.abatimento_centavos', 'extra_forbidden']])
    assert.deepEqual(await fields({ instrucao: 'abatimento', abatimento_centavos: 2_500_000 }), [['body.abatimento_centavos', 'less_than']])
    assert.deepEqual(await fields({ instrucao: 'abatimento', abatimento_centavos: 0 }), [['body.abatimento_centavos', 'greater_than_equal']])
    const extension = created(await w.ask({ instrucao: 'alteracao_vencimento', vencimento: '2027-11-20' }))
    // One prorrogação at a time: its IOF was priced on the due date the bank holds (red team: three at once charged 643 days of IOF).
    refused(await w.ask({ instrucao: 'alteracao_vencimento', vencimento: '2027-11-19' }), 409, { detail: 'prorrogacao_pendente', id: extension.id })
    created(await w.ask({ instrucao: 'abatimento', abatimento_centavos: 2_000_000 }))
    assert.deepEqual(await fields({ instrucao: 'abatimento', abatimento_centavos: 500_000 }), [['body.abatimento_centavos', 'less_than']],
      'with the abatement asked before, not below the value')
    refused(await w.ask({ instrucao: 'sustar_protesto' }), 409, { detail: 'protesto_nao_pedido' })
    created(await w.ask({ instrucao: 'protestar' }))
    created(await w.ask({ instrucao: 'sustar_protesto' }))
    const baixa = created(await w.ask({ instrucao: 'baixa' }))
    refused(await w.ask({ instrucao: 'protestar' }), 409, { detail: 'baixa_ja_pedida', id: baixa.id })

    refused(await w.office.operador.call('POST', `/api/cobrancas/${w.charge.id}/instrucoes`, { instrucao: 'baixa' }), 400,
      { detail: 'chave_idempotencia_ausente' })
    assert.deepEqual(await fields({ instrucao: 'juros' }), [['body.instrucao', 'literal_error']])
    const other = await backOffice(ctx.db, ctx.app, clock)
    refused(await other.operador.call('POST', `/api/cobrancas/${w.charge.id}/instrucoes`, { instrucao: 'baixa' }, key()), 404, { detail: 'nao_encontrado' })
    refused(await other.operador.call('GET', `/api/cobrancas/${w.charge.id}/instrucoes`), 404, { detail: 'nao_encontrado' })
    refused(await w.office.operador.call('GET', '/api/cobrancas/nada/instrucoes'), 404, { detail: 'nao_encontrado' })
    assert.equal((await w.list()).length, 5)
  })

  it('answers a retry with the same key as the first time, storing one instruction', async () => {
    const w = await world()
    const k = key()
    const one = created(await w.ask({ instrucao: 'protestar' }, k))
    assert.deepEqual(created(await w.ask({ instrucao: 'protestar' }, k)), one)
    assert.equal((await w.list()).length, 1)
  })
})
