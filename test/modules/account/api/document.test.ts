// The second OpenAPI document: only with a credential, valid OpenAPI 3.1, naming the credential layer's routes;
// the public /openapi.json names none of them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { API_ENV, bearer, issueToken } from '../../../helpers/api-credentials.ts'
import { customer } from '../../../helpers/credentials.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { PATHS } from '../../../helpers/openapi.ts'

describe('GET /api/conta/openapi.json', () => {
  const ctx = useTestApp({ env: API_ENV })

  it('answers 401 without a credential', async () => {
    const res = await ctx.app.inject({ url: '/api/conta/openapi.json' })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { detail: 'nao_autenticado' })
  })

  it('with any valid credential: a valid OpenAPI 3.1 document of the credential layer\'s routes', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta/openapi.json')
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const doc = res.json()
    const result = await new Validator().validate(structuredClone(doc))
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/cedentes', '/cedentes/{id}', '/cedentes/{id}/extrato', '/conta', '/conta/auditoria',
      '/conta/openapi.json', '/conta/tokens', '/conta/tokens/{id}', '/contabil/balancete', '/desembolsos', '/desembolsos/{id}', '/desembolsos/{id}/aprovacao',
      '/desembolsos/{id}/falha', '/desembolsos/{id}/pagamento', '/desembolsos/{id}/recusa',
      '/feriados', '/feriados/{id}', '/iof/aliquotas', '/lancamentos', '/mcp', '/operacoes',
      '/operacoes/{id}', '/operacoes/{id}/aceite', '/operacoes/{id}/bordero', '/operacoes/{id}/cancelamento', '/operacoes/{id}/cotacao',
        '/operacoes/{id}/desembolso',
      '/operacoes/{id}/formalizacao', '/operacoes/{id}/termo', '/operacoes/{id}/titulos', '/operacoes/{id}/titulos/{titulo_id}', '/painel', '/produtos',
      '/produtos/{id}', '/produtos/{id}/versoes', '/sacados', '/sacados/{id}', '/simulacoes', '/titulos', '/titulos/{id}',
      // Manual ledger entries (issue 32 item 10).
      '/lancamentos-manuais', '/lancamentos-manuais/{id}', '/lancamentos-manuais/{id}/confirmacao', '/lancamentos-manuais/{id}/recusa',
      // Collection accounts (issue 33).
      '/contas-cobranca', '/contas-cobranca/{id}', '/contas-cobranca/{id}/confirmacao',
      '/cobrancas', '/cobrancas/painel', '/cobrancas/{id}', '/cobrancas/{id}/boleto', '/cobrancas/{id}/email', '/cobrancas/{id}/instrucoes',
      '/cnab/remessas', '/cnab/remessas/{id}', '/cnab/remessas/{id}/arquivo', '/cnab/retornos', '/cnab/retornos/{id}', '/cnab/retornos/{id}/linhas',
      '/recompras', '/recompras/{id}', '/recompras/{id}/cancelamento', '/recompras/{id}/pagamento',
      // Webhooks (issue 34).
      '/webhooks', '/webhooks/{id}', '/webhooks/{id}/entregas', '/webhooks/{id}/entregas/{entrega}', '/webhooks/{id}/entregas/{entrega}/reenvio',
      '/webhooks/{id}/segredo', '/webhooks/{id}/teste',
      // Confirmation with the sacado (issue 34).
      '/titulos/{id}/confirmacao', '/titulos/{id}/confirmacao/dispensa', '/titulos/{id}/confirmacoes', '/titulos/{id}/confirmacoes/{confirmacao}/evidencia',
      // The registry of duplicatas escriturais (issue 34).
      '/titulos/{id}/registro', '/titulos/{id}/registro/cessao', '/titulos/{id}/registro/consulta',
    ].sort())
    const mcp = doc.paths['/mcp'].post.description as string
    for (const tool of ['status_servicos', 'enviar_contato', 'revogar_token', 'auditoria']) assert.ok(mcp.includes(`\`${tool}\``), tool)
    assert.deepEqual(Object.keys(doc.paths['/conta/tokens/{id}']), ['delete'])
    assert.ok(doc.paths['/conta'].get.responses['200'].content['application/json'].schema.properties.credencial)
  })

  it('the public /openapi.json is unchanged: its seven paths, none of the credential layer\'s', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json()
    assert.deepEqual(Object.keys(doc.paths).sort(), Object.keys(PATHS).sort())
    assert.doesNotMatch(JSON.stringify(doc), /\/conta["/]|escopo|DPoP|\/mcp|enviar_contato/)
  })
})
