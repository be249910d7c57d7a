// Errors that say why (issue 32, item 9): each back office form with typed fields, posted with a typical mistake,
// comes back with the API's reason for each field by the field's label ("CPF ou CNPJ: dígito verificador
// inválido"), every field the API refused at once, beside its field too, and what was typed kept.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, exampleRegisters, exampleTitles, key, settableClock } from '../operations/helpers.ts'
import { paymentAsked, signIn } from './steps.ts'

/** The refusal summary's lines, tags stripped. */
function summary(html: string): string[] {
  const box = /<div id="resumo-erros"[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''
  return [...box.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').trim())
}

/** The page refused the form with `status`, said each of `lines` in its summary, and kept each of `typed`. */
function refused(res: LightMyRequestResponse, status: number, lines: string[], typed: Record<string, string>) {
  assert.equal(res.statusCode, status, res.body.slice(0, 500))
  const said = summary(res.body)
  for (const line of lines) assert.ok(said.includes(line), `«${line}» not in ${JSON.stringify(said)}`)
  assert.doesNotMatch(said.join('\n'), /valor inválido/, 'every reason said')
  for (const [name, value] of Object.entries(typed)) {
    assert.match(res.body, new RegExp(`name="${name}"[^>]*value="${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`), `${name} kept`)
  }
}

describe('a refused back office form says why', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  const office = async () => {
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId, clock)
    return { admin, call, web: await signIn(ctx.app, admin.email) }
  }

  it('registers: cedente, sacado, produto, feriado', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, call } = await office()
    const cedente = { documento: '11.222.333/0001-82', razao_social: 'Cedente Errado Ltda', limite: '1.000,00', municipio_ibge: '3550308', uf: 'SP',
      perfil_iof: 'pj', banco: '341', agencia: '1234', conta: '567890', digito: '1' }
    refused(await web.submit('/conta/cedentes', 'form-cedente', cedente), 422, ['CPF ou CNPJ: dígito verificador inválido'],
      { documento: cedente.documento, razao_social: cedente.razao_social, limite: cedente.limite, banco: '341', conta: '567890' })
    // Two fields wrong: both told at once.
    refused(await web.submit('/conta/cedentes', 'form-cedente', { ...cedente, documento: '11.222.333/0001-81', razao_social: 'X', banco: '34' }), 422,
      ['Razão social ou nome: no mínimo 2 caracteres', 'Banco (código COMPE): o código do banco tem 3 dígitos (COMPE), como 341'],
      { razao_social: 'X', banco: '34', agencia: '1234' })
    refused(await web.submit('/conta/cedentes', 'form-cedente', { ...cedente, documento: '11.222.333/0001-81', perfil_iof: 'pf' }), 422,
      ['Perfil de IOF: o perfil pessoa física pede um CPF, mas o documento é um CNPJ'], { documento: '11.222.333/0001-81' })

    created(await call('POST', '/api/sacados', { documento: '11144477735', razao_social: 'Sacado Já Cadastrado' }))
    const dup = await web.submit('/conta/sacados', 'form-sacado', { documento: '111.444.777-35', razao_social: 'Outro Nome' })
    refused(dup, 409, ['CPF ou CNPJ: a empresa já tem um cadastro com este documento'], { documento: '111.444.777-35', razao_social: 'Outro Nome' })
    assert.match(dup.body, /id="erro-documento">a empresa já tem um cadastro com este documento</, 'beside its field too')

    refused(await web.submit('/conta/produtos', 'form-produto', {
      nome: 'Produto zero', base: 'simples_30', taxa_mensal: '0', taxa_ad_valorem: '0,3', iof: 'calcular',
    }), 422, ['Taxa mensal (%): um percentual acima de 0 e abaixo de 100'], { nome: 'Produto zero', taxa_mensal: '0', taxa_ad_valorem: '0,3' })

    refused(await web.submit('/conta/feriados', 'form-feriado', { data: '2026-12-08', descricao: 'Festa local', municipio_ibge: '0000000' }), 422,
      ['Município (código IBGE): nenhuma UF tem este código IBGE'], { descricao: 'Festa local', municipio_ibge: '0000000' })
  })

  it('an operation: its date, a título\'s due date and NF-e key at once, the term\'s hash, the cancellation\'s reason', async () => {
    clock.set(EXAMPLE_NOW)
    const { web, call } = await office()
    const regs = await exampleRegisters(call)
    // Nothing preselected: a form sent as it opens names both choices, and the choices are kept after a refusal.
    refused(await web.submit('/conta/operacoes', 'form-operacao'), 422, ['Cedente: obrigatório', 'Produto: obrigatório'], {})
    const chosen = await web.submit('/conta/operacoes', 'form-operacao', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-01',
    })
    refused(chosen, 422, ['Data da operação: antes de hoje (05/10/2026)'], { data_operacao: '2026-10-01' })
    assert.match(chosen.body, new RegExp(`<option value="${regs.cedente.id}" selected>Cedente Exemplo Ltda \\(11\\.222\\.333/0001-81\\)</option>`))
    assert.match(chosen.body, new RegExp(`<option value="${regs.produto.id}" selected>`))

    const draft = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05' }))
    const path = `/conta/operacoes/${draft.id}`
    const titulo = { tipo: 'duplicata_mercantil', numero: 'NF-77', sacado_id: regs.sacados[0].id, emissao: '2026-10-01', vencimento: '2026-10-05',
      valor_face: '1.234,56', chave_nfe: '3'.repeat(44) }
    refused(await web.submit(path, 'form-titulo', titulo), 422, [
      'Vencimento: antes da data da operação (05/10/2026) ou nela: o título vence depois dela', 'Chave da NF-e: dígito verificador da chave inválido',
    ], { numero: 'NF-77', vencimento: '2026-10-05', valor_face: '1.234,56', chave_nfe: '3'.repeat(44) })
    refused(await web.submit(path, 'form-cancelar', { motivo: 'x' }), 422, ['Motivo: no mínimo 3 caracteres'], { motivo: 'x' })

    created(await call('POST', `/api/operacoes/${draft.id}/titulos`, { titulos: exampleTitles([regs.sacados[0].id]).slice(0, 1) }))
    created(await call('POST', `/api/operacoes/${draft.id}/cotacao`))
    created(await call('POST', `/api/operacoes/${draft.id}/aceite`, { cotacao_versao: 1 }, key()), 200)
    refused(await web.submit(path, 'form-formalizacao', {
      termo_sha256: 'abc', assinado_em: '2026-10-05T11:00', signatario_nome: 'Sócia', signatario_documento: '111.444.777-35',
    }), 422, ['SHA-256 do termo de cessão assinado: o SHA-256 tem 64 caracteres hexadecimais'], { termo_sha256: 'abc', signatario_nome: 'Sócia' })
  })

  it('a payment: the refusal\'s reason, the transfer\'s instant and the failure\'s reason', async () => {
    clock.set(EXAMPLE_NOW)
    const { admin, call, web } = await office()
    const aprovador = await colleagueWithPassword(ctx.db, admin.clienteId, 'aprovador')
    const ap = await signIn(ctx.app, aprovador.email)
    const regs = await exampleRegisters(call)
    const draft = created(await call('POST', '/api/operacoes', {
      cedente_id: regs.cedente.id, produto_id: regs.produto.id, data_operacao: '2026-10-05', titulos: exampleTitles([regs.sacados[0].id]).slice(0, 1),
    }))
    const payment = await paymentAsked(call, draft.id)
    refused(await ap.submit('/conta/desembolsos', `recusa-${payment.id}`, { motivo: 'no' }), 422, ['Motivo da recusa: no mínimo 3 caracteres'],
      { motivo: 'no' })

    await ap.done('/conta/desembolsos', `aprovar-${payment.id}`)
    refused(await web.submit('/conta/desembolsos', `pagar-${payment.id}`, { id_transacao: 'E123', pago_em: '2026-10-05T23:00:00' }), 422,
      ['Paga em (horário de Brasília): não pode ser no futuro nem antes da aprovação'], { id_transacao: 'E123', pago_em: '2026-10-05T23:00:00' })
    refused(await web.submit('/conta/desembolsos', `falha-${payment.id}`, { motivo: 'ok' }), 422, ['Motivo da falha: no mínimo 3 caracteres'],
      { motivo: 'ok' })
  })
})
