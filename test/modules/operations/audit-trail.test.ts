// Every change the product makes is a row of the customer's audit trail, carrying the X-Request-ID of the request
// that made it (and the service's own id), readable by the customer at /api/conta/auditoria: registers, terms,
// holidays, each step of an operation and of its payment, a failed transfer and a cancellation. The ledger's
// entries carry the same service id as the audit row of the step that posted them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, CEDENTE_DOC, CONTA, created, EXAMPLE_NOW, EXAMPLE_PRODUCT, exampleTitles, key, SAO_PAULO, settableClock, type Caller } from './helpers.ts'

type Step = { acao: string, id: string }

describe('the audit trail of the product', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('holds a row for every change, with the client\'s X-Request-ID and the service\'s own, read back through the API', async () => {
    clock.set(EXAMPLE_NOW)
    const { operador, aprovador, admin } = await backOffice(ctx.db, ctx.app, clock)
    const steps: Step[] = []
    let n = 0
    /** One change, sent with its own X-Request-ID; `acao` is the row it must leave. */
    const change = async (who: Caller, acao: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object, keyed = false, status = 201) => {
      const id = `trilha-${++n}-${acao}`
      const res = await who(method, url, body, { 'x-request-id': id, ...(keyed ? key() : {}) })
      assert.equal(res.statusCode, status, `${acao}: ${res.body}`)
      steps.push({ acao, id })
      return res.statusCode === 204 ? undefined : res.json()
    }

    const produto = await change(operador.call, 'produto.criado', 'POST', '/api/produtos', EXAMPLE_PRODUCT)
    await change(operador.call, 'produto.versao_criada', 'POST', `/api/produtos/${produto.id}/versoes`, { ...EXAMPLE_PRODUCT, nome: undefined })
    const cedente = await change(operador.call, 'cedente.criado', 'POST', '/api/cedentes', {
      documento: CEDENTE_DOC, razao_social: 'Cedente Exemplo Ltda', perfil_iof: 'pj', municipio_ibge: SAO_PAULO, uf: 'SP',
      contas_bancarias: [{ ...CONTA, titular_documento: CEDENTE_DOC }],
    })
    await change(operador.call, 'cedente.alterado', 'PATCH', `/api/cedentes/${cedente.id}`, { razao_social: 'Cedente Exemplo S.A.' }, false, 200)
    const sacados = []
    for (const documento of ['11144477735', '12ABC34501DE35', '52998224725']) {
      const sacado = { documento, razao_social: `Sacado ${documento}`, municipio_ibge: SAO_PAULO, uf: 'SP' }
      sacados.push(await change(operador.call, 'sacado.criado', 'POST', '/api/sacados', sacado))
    }
    await change(operador.call, 'sacado.alterado', 'PATCH', `/api/sacados/${sacados[0].id}`, { razao_social: 'Sacado Um Ltda' }, false, 200)
    const feriado = await change(operador.call, 'feriado.criado', 'POST', '/api/feriados', { data: '2026-12-08', descricao: 'Feriado do cliente', uf: 'SP' })
    await change(operador.call, 'feriado.removido', 'DELETE', `/api/feriados/${feriado.id}`, undefined, false, 204)

    const [t1, t2, t3] = exampleTitles(sacados.map((s: { id: string }) => s.id))
    const op = await change(operador.call, 'operacao.criada', 'POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [t1] })
    const added = await change(operador.call, 'operacao.titulos_adicionados', 'POST', `/api/operacoes/${op.id}/titulos`, { titulos: [t2, t3] })
    await change(operador.call, 'operacao.titulo_removido', 'DELETE', `/api/operacoes/${op.id}/titulos/${added.adicionados[1].id}`, undefined, false, 200)
    const quote = await change(operador.call, 'operacao.cotada', 'POST', `/api/operacoes/${op.id}/cotacao`)
    await change(operador.call, 'operacao.aceita', 'POST', `/api/operacoes/${op.id}/aceite`, { cotacao_versao: quote.versao }, true, 200)
    await change(operador.call, 'operacao.formalizada', 'POST', `/api/operacoes/${op.id}/formalizacao`, {
      termo_sha256: 'b'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia Administradora', documento: '111.444.777-35' }],
    }, false, 200)
    const first = await change(operador.call, 'desembolso.solicitado', 'POST', `/api/operacoes/${op.id}/desembolso`, {}, true)
    await change(aprovador.call, 'desembolso.aprovado', 'POST', `/api/desembolsos/${first.id}/aprovacao`, undefined, true, 200)
    await change(operador.call, 'desembolso.falhou', 'POST', `/api/desembolsos/${first.id}/falha`, { motivo: 'conta encerrada' }, false, 200)
    const second = await change(operador.call, 'desembolso.solicitado', 'POST', `/api/operacoes/${op.id}/desembolso`, {}, true)
    await change(aprovador.call, 'desembolso.aprovado', 'POST', `/api/desembolsos/${second.id}/aprovacao`, undefined, true, 200)
    clock.set('2026-10-05T18:00:00Z')
    await change(operador.call, 'desembolso.pago', 'POST', `/api/desembolsos/${second.id}/pagamento`,
      { id_transacao: 'E341234562026100518000000000002', pago_em: '2026-10-05T17:59:00Z' }, true, 200)

    const other = await change(operador.call, 'operacao.criada', 'POST', '/api/operacoes', { cedente_id: cedente.id, produto_id: produto.id, titulos: [t3] })
    const otherQuote = await change(operador.call, 'operacao.cotada', 'POST', `/api/operacoes/${other.id}/cotacao`)
    await change(operador.call, 'operacao.aceita', 'POST', `/api/operacoes/${other.id}/aceite`, { cotacao_versao: otherQuote.versao }, true, 200)
    await change(operador.call, 'operacao.cancelada', 'POST', `/api/operacoes/${other.id}/cancelamento`, { motivo: 'cedente desistiu' }, false, 200)

    const trail = created(await admin.call('GET', '/api/conta/auditoria?limite=200'), 200).itens as Record<string, unknown>[]
    for (const step of steps) {
      // A token's first request also records that first use, under the same ids.
      const rows = trail.filter((r) => r.request_id_cliente === step.id && r.acao !== 'token.primeiro_uso')
      assert.deepEqual(rows.map((r) => r.acao), [step.acao], `${step.id}: one row, of its action`)
      assert.match(String(rows[0]!.request_id), /^[0-9a-f-]{36}$/, `${step.id}: the service's own id beside the client's`)
    }
    // Each entry of the ledger names the request that posted it: the audit row of the same step has its id.
    const serviceId = (acao: string, clientId: string) => trail.find((r) => r.acao === acao && r.request_id_cliente === clientId)!.request_id
    const entries = created(await operador.call('GET', '/api/lancamentos?limite=50'), 200).itens as Record<string, unknown>[]
    const posting = (s: Step) => serviceId(s.acao, s.id)
    const posted = steps.filter((s) => ['operacao.aceita', 'desembolso.pago', 'operacao.cancelada'].includes(s.acao)).map(posting).sort()
    assert.equal(entries.length, 4, 'two acquisitions, a payment and a reversal')
    assert.deepEqual(entries.map((e) => e.request_id).sort(), posted)
  })
})
