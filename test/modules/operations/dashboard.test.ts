// GET /api/painel (issue 32, item 6): the day's numbers as the database sums them, checked against the same numbers
// recomputed here from what the API answers for each operation and payment the test made, row by row; another
// customer's operations, títulos and payments never counted; "today" is Brasília's day, not UTC's.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { mcpClient } from '../mcp/helpers.ts'
import { backOffice, created, exampleRegisters, formalizedExample, key, settableClock, type Caller } from './helpers.ts'

type Title = { estado: string, vencimento: string, valor_face_centavos: number, sacado_id: string }
type Op = { id: string, estado: string, cedente_id: string, titulos: Title[] }
type Payment = { estado: string, valor_centavos: number, pago_em: string | null }

const sum = (list: number[]) => list.reduce((a, b) => a + b, 0)
const counted = (list: number[]) => ({ quantidade: list.length, valor_centavos: sum(list) })
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

/** The dashboard recomputed from the API's own reads: every operation in full, every payment. */
async function expected(call: Caller, hoje: string, limits: Map<string, number | null>, names: Map<string, string>) {
  const ops: Op[] = []
  for (const s of created(await call('GET', '/api/operacoes?limite=200'), 200).itens) ops.push(created(await call('GET', `/api/operacoes/${s.id}`), 200))
  const payments: Payment[] = created(await call('GET', '/api/desembolsos?limite=200'), 200).itens
  const open = ops.flatMap((o) => o.titulos.filter((t) => t.estado === 'adquirido').map((t) => ({ ...t, cedente_id: o.cedente_id })))
  const exposure = (by: 'cedente_id' | 'sacado_id') => {
    const totals = new Map<string, number>()
    for (const t of open) totals.set(t[by], (totals.get(t[by]) ?? 0) + t.valor_face_centavos)
    return [...totals].sort((a, b) => b[1] - a[1])
      .map(([id, total]) => ({ id, razao_social: names.get(id), exposicao_centavos: total, limite_centavos: limits.get(id) ?? null }))
  }
  const paidToday = payments.filter((p) => p.estado === 'pago' && new Date(Date.parse(p.pago_em!) - 3 * 3_600_000).toISOString().slice(0, 10) === hoje)
  return {
    hoje,
    exposicao_cedentes: exposure('cedente_id'),
    exposicao_sacados: exposure('sacado_id'),
    vencimentos: [7, 30].map((dias) => ({
      dias, ...counted(open.filter((t) => t.vencimento >= hoje && t.vencimento <= dayAfter(hoje, dias)).map((t) => t.valor_face_centavos)),
    })),
    vencidos: counted(open.filter((t) => t.vencimento < hoje).map((t) => t.valor_face_centavos)),
    desembolsos_aguardando_aprovacao: counted(payments.filter((p) => p.estado === 'aguardando_aprovacao').map((p) => p.valor_centavos)),
    desembolsos_aprovados: counted(payments.filter((p) => p.estado === 'aprovado').map((p) => p.valor_centavos)),
    desembolsos_pagos_hoje: counted(paidToday.map((p) => p.valor_centavos)),
    operacoes_por_estado: ['rascunho', 'cotada', 'aceita', 'formalizada', 'em_desembolso', 'desembolsada', 'cancelada']
      .map((estado) => ({ estado, quantidade: ops.filter((o) => o.estado === estado).length })),
  }
}

describe('GET /api/painel', () => {
  // Noon in Brasília on the example's day.
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('answers the sums the API\'s rows add up to, with limits beside, and nothing of another customer', async () => {
    const a = await backOffice(ctx.db, ctx.app, clock)
    const call = a.operador.call
    const regs = await exampleRegisters(call, { cedente: { limite_centavos: 9_000_000 } })
    const [s0, s1] = regs.sacados.map((s: { id: string }) => s.id)
    created(await call('PATCH', `/api/sacados/${s1}`, { limite_centavos: 3_000_000 }), 200)

    // 1: formalized, its payment waiting for approval (títulos due 04/11 — day 30, counted — 20/11 and 04/12).
    const first = await formalizedExample(call, regs)
    created(await call('POST', `/api/operacoes/${first.op.id}/desembolso`, {}, key()))
    // 2: due in 4 and 15 days, paid today at 14:59 in Brasília.
    const second = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: [
        { tipo: 'duplicata_mercantil', numero: 'C1', sacado_id: s0, emissao: '2026-10-01', vencimento: '2026-10-09', valor_face_centavos: 300_000 },
        { tipo: 'duplicata_mercantil', numero: 'C2', sacado_id: s1, emissao: '2026-10-01', vencimento: '2026-10-20', valor_face_centavos: 200_000 },
      ],
    }))
    created(await call('POST', `/api/operacoes/${second.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${second.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    created(await call('POST', `/api/operacoes/${second.id}/formalizacao`, {
      termo_sha256: 'd'.repeat(64), assinado_em: '2026-10-05T14:00:00Z', signatarios: [{ nome: 'Sócia', documento: '111.444.777-35' }],
    }), 200)
    const payment = created(await call('POST', `/api/operacoes/${second.id}/desembolso`, {}, key()))
    created(await a.aprovador.call('POST', `/api/desembolsos/${payment.id}/aprovacao`, undefined, key()), 200)
    clock.set('2026-10-05T18:00:00Z')
    created(await call('POST', `/api/desembolsos/${payment.id}/pagamento`, { id_transacao: 'E341234562026100518000000000009', pago_em: '2026-10-05T17:59:00Z' },
      key()), 200)
    // 3: a draft, its título offered and not bought: no exposure, nothing due.
    created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: [
        { tipo: 'cheque', numero: 'R1', sacado_id: s0, emissao: '2026-10-01', vencimento: '2026-10-07', valor_face_centavos: 700_000 },
      ],
    }))

    // Another customer, busier: none of it is counted for the first.
    const b = await backOffice(ctx.db, ctx.app, clock)
    const other = await formalizedExample(b.operador.call)
    created(await b.operador.call('POST', `/api/operacoes/${other.op.id}/desembolso`, {}, key()))

    const limits = new Map<string, number | null>([[regs.cedente.id, 9_000_000], [s1!, 3_000_000]])
    const names = new Map<string, string>([[regs.cedente.id, regs.cedente.razao_social], ...regs.sacados.map((s: { id: string, razao_social: string }) =>
      [s.id, s.razao_social] as [string, string])])
    const strip = (p: Record<string, unknown>) => ({
      ...p,
      exposicao_cedentes: (p.exposicao_cedentes as Record<string, unknown>[]).map(({ documento: _d, ...e }) => e),
      exposicao_sacados: (p.exposicao_sacados as Record<string, unknown>[]).map(({ documento: _d, ...e }) => e),
    })

    const painel = created(await a.aprovador.call('GET', '/api/painel'), 200)
    const want = await expected(call, '2026-10-05', limits, names)
    assert.deepEqual(strip(painel), want)
    // What the recomputation found, so that a dashboard of zeros could not pass against a recomputation of zeros.
    assert.equal(painel.exposicao_cedentes[0].exposicao_centavos, 5_500_000)
    assert.equal(painel.exposicao_cedentes[0].documento, regs.cedente.documento)
    assert.deepEqual(painel.vencimentos.map((v: { quantidade: number }) => v.quantidade), [1, 3])
    assert.equal(painel.desembolsos_aguardando_aprovacao.quantidade, 1)
    assert.equal(painel.desembolsos_pagos_hoje.quantidade, 1)
    assert.deepEqual(painel.operacoes_por_estado.filter((s: { quantidade: number }) => s.quantidade).map((s: { estado: string }) => s.estado),
      ['rascunho', 'em_desembolso', 'desembolsada'])

    // 23:30 in Brasília is still the 5th there (the 6th in UTC): the payment is still today's, nothing due yet passed.
    clock.set('2026-10-06T02:30:00Z')
    const late = created(await call('GET', '/api/painel'), 200)
    assert.equal(late.hoje, '2026-10-05')
    assert.deepEqual(late.desembolsos_pagos_hoje, painel.desembolsos_pagos_hoje)
    // The 6th in Brasília: no payment is today's, and the horizons move a day.
    clock.set('2026-10-06T03:30:00Z')
    const next = created(await call('GET', '/api/painel'), 200)
    assert.equal(next.hoje, '2026-10-06')
    assert.deepEqual(next.desembolsos_pagos_hoje, { quantidade: 0, valor_centavos: 0 })
    assert.deepEqual(strip(next), await expected(call, '2026-10-06', limits, names))

    // The other customer's dashboard holds its own operation alone.
    clock.set('2026-10-05T15:00:00Z')
    const theirs = created(await b.operador.call('GET', '/api/painel'), 200)
    assert.deepEqual(theirs.exposicao_cedentes.map((e: { id: string }) => e.id), [other.cedente.id])
    assert.deepEqual(theirs.operacoes_por_estado.filter((s: { quantidade: number }) => s.quantidade), [{ estado: 'em_desembolso', quantidade: 1 }])
  })

  it('is refused without a credential', async () => {
    assert.equal((await ctx.app.inject({ url: '/api/painel' })).statusCode, 401)
  })
})

describe('ler_painel (MCP)', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { ...API_ENV, MAIL_WORKER: 'off' }, deps: { clock }, listen: true })

  it('answers what GET /api/painel answers, and the call is audited', async (t) => {
    const a = await backOffice(ctx.db, ctx.app, clock)
    const { op } = await formalizedExample(a.operador.call)
    created(await a.operador.call('POST', `/api/operacoes/${op.id}/desembolso`, {}, key()))
    const { token } = await issueToken(ctx.db, a.clienteId, { escopos: ['mcp', 'operacoes'], clock })
    const agent = await mcpClient(t, ctx.base, token)
    const read = await agent.callTool({ name: 'ler_painel', arguments: {} })
    assert.ok(!read.isError, JSON.stringify(read.content))
    const route = created(await bearer(ctx.app, token, 'GET', '/api/painel'), 200)
    assert.deepEqual(read.structuredContent, route)
    assert.equal(route.desembolsos_aguardando_aprovacao.quantidade, 1)
    assert.ok((await auditRows(ctx.db, a.clienteId)).some((r) => r.acao === 'mcp.ler_painel'))
  })
})
