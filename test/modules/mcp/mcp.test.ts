// The MCP server at /api/mcp, as an agent meets it: the SDK's client connects over HTTP with an `mcp` token,
// lists and calls every tool and reads every resource; each call runs as the token's customer (A's agent never
// sees B's tokens) and is audited with its request id; the refusals carry the RFC 9728 `resource_metadata`.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { DEFAULT_DPOP_ALGORITHMS } from '../../../src/modules/credentials/dpop/algorithms.ts'
import { API_ENV, currentNonce, issueToken, PUBLIC_URL, withProof } from '../../helpers/api-credentials.ts'
import { contactBody } from '../../helpers/app.ts'
import { auditRows, customer, rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { makeKey } from '../credentials/dpop-keys.ts'
import { MCP_PATH, mcpClient, PROTOCOL_VERSION, resultJson, rpc, toolCall } from './helpers.ts'

const METADATA_URL = `${PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp`
const TOOLS = ['assuntos_contato', 'auditoria', 'cotar_operacao', 'criar_operacao', 'enviar_contato', 'ler_operacao', 'ler_painel', 'ler_recompra',
  'ler_remessa', 'ler_retorno', 'listar_cedentes', 'listar_instrucoes', 'listar_operacoes', 'listar_produtos', 'listar_recompras', 'listar_remessas',
  'listar_retornos', 'listar_sacados', 'listar_tokens', 'minha_conta', 'revogar_token', 'simular', 'status_servicos', 'versao']

describe('MCP server at /api/mcp', () => {
  const ctx = useTestApp({ env: API_ENV, listen: true, contactBudget: 100 })

  it('the SDK client connects with an `mcp` token and lists the tools (JSON Schema in and out) and the resources', async (t) => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const client = await mcpClient(t, ctx.base, token)
    // Unstamped (no APP_VERSION), the server names the package's version, never 0.0.0 (issue 31 item 18).
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
    assert.deepEqual(client.getServerVersion()?.version, pkg.version)
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((x) => x.name).sort(), TOOLS)
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name)
      assert.equal(tool.outputSchema?.type, 'object', tool.name)
    }
    const enviar = tools.find((x) => x.name === 'enviar_contato')!
    assert.deepEqual([...(enviar.inputSchema.required as string[])].sort(), ['email', 'mensagem', 'nome'])
    const { resources } = await client.listResources()
    assert.deepEqual(resources.map((r) => r.uri).sort(),
      ['site://contato', 'site://docs', 'site://inicio', 'site://openapi.json', 'site://privacidade', 'site://status'])
  })

  it('resources: each page as the Markdown its route answers, and the public OpenAPI document', async (t) => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const client = await mcpClient(t, ctx.base, token)
    for (const [uri, path] of [['site://contato', '/contato'], ['site://privacidade', '/privacidade'], ['site://inicio', '/']]) {
      const read = await client.readResource({ uri: uri! })
      const page = await ctx.app.inject({ url: path!, headers: { accept: 'text/markdown' } })
      const content = read.contents[0] as { text: string, mimeType: string }
      assert.equal(content.mimeType, 'text/markdown')
      assert.equal(content.text, page.body, uri)
    }
    const openapi = await client.readResource({ uri: 'site://openapi.json' })
    const served = await ctx.app.inject({ url: '/openapi.json' })
    assert.deepEqual(JSON.parse((openapi.contents[0] as { text: string }).text), served.json())
  })

  it('calls each tool: structured results as the HTTP API answers them, each call audited with the request id', async (t) => {
    const c = await customer(ctx.db, 'Cliente MCP')
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp', 'conta', 'tokens'], nome: 'agente' })
    const other = await issueToken(ctx.db, c.id, { nome: 'outro' })
    const client = await mcpClient(t, ctx.base, agent.token, { 'x-request-id': 'req-mcp-ferramentas' })
    const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args })

    const status = await call('status_servicos')
    assert.ok(!status.isError, JSON.stringify(status))
    const api = await ctx.app.inject({ url: '/api/status' })
    assert.deepEqual(Object.keys(status.structuredContent!).sort(), Object.keys(api.json()).sort())

    const versao = await call('versao')
    assert.deepEqual(versao.structuredContent, (await ctx.app.inject({ url: '/api/version' })).json())

    const assuntos = await call('assuntos_contato')
    assert.deepEqual(assuntos.structuredContent, (await ctx.app.inject({ url: '/api/site/contato/assuntos' })).json())

    const conta = (await call('minha_conta')).structuredContent as { cliente: unknown, credencial: Record<string, unknown> }
    assert.deepEqual(conta.cliente, { id: c.id, nome: 'Cliente MCP' })
    const { tipo, id, nome, escopos } = conta.credencial
    assert.deepEqual([tipo, id, nome, escopos], ['pat', agent.id, 'agente', ['mcp', 'conta', 'tokens']])

    const listed = (await call('listar_tokens')).structuredContent as { tokens: { id: string }[] }
    assert.deepEqual(listed.tokens.map((x) => x.id).sort(), [agent.id, other.id].sort())
    assert.ok(!JSON.stringify(listed).includes(other.token))

    const revoked = await call('revogar_token', { id: other.id })
    assert.deepEqual(revoked.structuredContent, { id: other.id, resultado: 'revogado' })
    assert.deepEqual((await call('revogar_token', { id: other.id })).structuredContent, { id: other.id, resultado: 'ja_revogado' })
    assert.equal((await rpc(ctx.base, toolCall(1, 'versao'), { authorization: `Bearer ${other.token}` })).status, 401, 'the revoked token is refused')

    const enviado = await call('enviar_contato', contactBody())
    assert.ok(!enviado.isError, JSON.stringify(enviado))
    assert.match(String((enviado.structuredContent as { protocolo: string }).protocolo), /\S/)

    const trail = (await call('auditoria', { limite: 200 })).structuredContent as { itens: { acao: string, request_id: string | null }[] }
    const acoes = trail.itens.map((i) => i.acao)
    for (const tool of ['status_servicos', 'versao', 'assuntos_contato', 'minha_conta', 'listar_tokens', 'revogar_token', 'enviar_contato']) {
      assert.ok(acoes.includes(`mcp.${tool}`), tool)
    }
    const rows = (await auditRows(ctx.db, c.id)).filter((r) => String(r.acao).startsWith('mcp.'))
    assert.equal(rows.length, 9, 'one row per call, the trail read included')
    for (const r of rows) assert.deepEqual([r.ator_tipo, r.ator_id, r.request_id_cliente], ['token', agent.id, 'req-mcp-ferramentas'])
    const revokeRows = rows.filter((r) => r.acao === 'mcp.revogar_token')
    assert.deepEqual(revokeRows.map((r) => r.alvo_id), [other.id, other.id])
  })

  it('tenancy holds: A\'s agent sees only A\'s tokens, and cannot revoke B\'s even with its id', async (t) => {
    const a = await customer(ctx.db, 'Cliente A')
    const b = await customer(ctx.db, 'Cliente B')
    const aAgent = await issueToken(ctx.db, a.id, { escopos: ['mcp', 'conta', 'tokens'] })
    const bToken = await issueToken(ctx.db, b.id)
    const client = await mcpClient(t, ctx.base, aAgent.token)
    const listed = (await client.callTool({ name: 'listar_tokens', arguments: {} })).structuredContent as { tokens: { id: string }[] }
    assert.deepEqual(listed.tokens.map((x) => x.id), [aAgent.id])
    const revoke = await client.callTool({ name: 'revogar_token', arguments: { id: bToken.id } })
    assert.equal(revoke.isError, true)
    assert.deepEqual(resultJson(revoke), { detail: 'nao_encontrado' })
    const trail = (await client.callTool({ name: 'auditoria', arguments: { limite: 200 } })).structuredContent as {
      itens: { ator_id: string | null, alvo_id: string | null }[]
    }
    for (const item of trail.itens) assert.ok(item.ator_id !== bToken.id && item.alvo_id !== bToken.id && item.alvo_id !== b.id, JSON.stringify(item))
    assert.equal((await ctx.app.inject({ url: '/api/conta', headers: { authorization: `Bearer ${bToken.token}` } })).statusCode, 200, 'B\'s token still works')
  })

  it('arguments that do not fit a tool\'s schema: the API\'s 422 items as a tool error, and the call audited (motivo validacao)', async (t) => {
    const c = await customer(ctx.db)
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp', 'conta', 'tokens'] })
    const client = await mcpClient(t, ctx.base, agent.token)
    const missing = await client.callTool({ name: 'revogar_token', arguments: {} })
    assert.equal(missing.isError, true)
    const items = (resultJson(missing).detail as { loc: string[], type: string }[]).map((i) => [i.loc.join('.'), i.type])
    assert.deepEqual(items, [['body.id', 'missing']])
    const wrongType = await client.callTool({ name: 'auditoria', arguments: { limite: 'muitos' } })
    assert.equal(wrongType.isError, true)
    assert.deepEqual((resultJson(wrongType).detail as { loc: string[] }[]).map((i) => i.loc.join('.')), ['body.limite'])
    const rows = (await auditRows(ctx.db, c.id)).filter((r) => String(r.acao).startsWith('mcp.'))
    assert.deepEqual(rows.map((r) => [r.acao, r.motivo]).sort(), [['mcp.auditoria', 'validacao'], ['mcp.revogar_token', 'validacao']])
  })

  it('a tool whose scope the token lacks is refused as a tool error (escopo_insuficiente), and audited so', async (t) => {
    const c = await customer(ctx.db)
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const client = await mcpClient(t, ctx.base, agent.token)
    const res = await client.callTool({ name: 'listar_tokens', arguments: {} })
    assert.equal(res.isError, true)
    assert.deepEqual(resultJson(res), { detail: 'escopo_insuficiente', escopo: 'tokens' })
    const rows = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'mcp.listar_tokens')
    assert.deepEqual(rows.map((r) => r.motivo), ['escopo_insuficiente'])
  })

  it('enviar_contato: invalid arguments answer the 422 items; the same message sent again stores one contact and answers the first protocolo', async (t) => {
    const c = await customer(ctx.db)
    const agent = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const client = await mcpClient(t, ctx.base, agent.token)
    const bad = await client.callTool({ name: 'enviar_contato', arguments: contactBody({ email: 'nao-e-email', mensagem: 'curta' }) })
    assert.equal(bad.isError, true)
    const api = await ctx.app.inject({ method: 'POST', url: '/api/site/contato', payload: contactBody({ email: 'nao-e-email', mensagem: 'curta' }) })
    assert.equal(api.statusCode, 422)
    const items = (resultJson(bad).detail as { loc: string[], type: string }[]).map((i) => [i.loc.join('.'), i.type])
    assert.deepEqual(items, (api.json().detail as { loc: string[], type: string }[]).map((i) => [i.loc.join('.'), i.type]), 'the API\'s 422 items')
    assert.deepEqual(items.map(([loc]) => loc).sort(), ['body.email', 'body.mensagem'])

    const body = contactBody()
    const headers = { authorization: `Bearer ${agent.token}` }
    let id = 40
    const send = async () => {
      // An agent's retry is a new JSON-RPC request: a new id.
      const res = await rpc(ctx.base, toolCall(id++, 'enviar_contato', body), headers)
      assert.equal(res.status, 200)
      const json = await res.json() as { result: { structuredContent: { protocolo: string }, isError?: boolean } }
      assert.ok(!json.result.isError, JSON.stringify(json))
      return json.result.structuredContent.protocolo
    }
    const first = await send()
    const again = await send()
    assert.equal(again, first)
    const stored = await rowsAs<{ n: number }>(ctx.db, undefined, `SELECT count(*)::int AS n FROM contato WHERE mensagem = '${body.mensagem as string}'`)
    assert.equal(stored[0]!.n, 1)
  })
})

describe('/api/mcp refusals, headers and metadata', () => {
  const logs: Record<string, unknown>[] = []
  const ctx = useTestApp({ env: API_ENV, listen: true, logs })

  it('no token, or a wrong one: 401 whose challenges name the resource metadata (RFC 9728 section 5.1)', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer fct_nao_existe_0000000000000000000000' }, { authorization: 'Basic dXNlcjpwYXNz' }]
    for (const headers of attempts) {
      const res = await rpc(ctx.base, toolCall(1, 'versao'), headers)
      assert.equal(res.status, 401, JSON.stringify(headers))
      const challenge = res.headers.get('www-authenticate')!
      assert.match(challenge, /^Bearer realm="api"/)
      assert.equal(challenge.match(/resource_metadata="([^"]+)"/g)?.length, 2, challenge)
      assert.ok(challenge.includes(`resource_metadata="${METADATA_URL}"`), challenge)
    }
    // Elsewhere in /api the challenge names no metadata document.
    const conta = await ctx.app.inject({ url: '/api/conta' })
    assert.equal(conta.statusCode, 401)
    assert.ok(!String(conta.headers['www-authenticate']).includes('resource_metadata'))
  })

  it('the SDK client without a token fails to connect with the 401', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
    const client = new Client({ name: 'teste', version: '1.0.0' })
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, ctx.base))))
    await client.close()
  })

  it('a token without `mcp`: 403 escopo_insuficiente, insufficient_scope for scope mcp', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['conta', 'tokens'] })
    const res = await rpc(ctx.base, toolCall(1, 'versao'), { authorization: `Bearer ${token}` })
    assert.equal(res.status, 403)
    assert.deepEqual(await res.json(), { detail: 'escopo_insuficiente' })
    const challenge = res.headers.get('www-authenticate')!
    assert.match(challenge, /Bearer realm="api", error="insufficient_scope", scope="mcp", resource_metadata="/)
  })

  it('a DPoP-bound token sent as Bearer is refused here as everywhere (dpop_obrigatorio)', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'], dpopJkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' })
    const res = await rpc(ctx.base, toolCall(1, 'versao'), { authorization: `Bearer ${token}` })
    assert.equal(res.status, 401)
    assert.deepEqual(await res.json(), { detail: 'dpop_obrigatorio' })
  })

  it('the same bound token with its DPoP proof (htu: PUBLIC_URL/api/mcp) is served, as on the rest of /api', async () => {
    const c = await customer(ctx.db)
    const key = await makeKey('ES256')
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp', 'conta'], dpopJkt: key.jkt })
    const nonce = await currentNonce(ctx.app, key, token)
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION }
    const res = await withProof(ctx.app, key, token, 'POST', MCP_PATH, { nonce }, { payload: toolCall(3, 'minha_conta'), headers })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().result.structuredContent.credencial.dpop, true)
  })

  it('an MCP answer carries the request id, the security headers, no-store and the /api CORS answer (the reply is hijacked)', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    const res = await rpc(ctx.base, toolCall(7, 'versao'), { authorization: `Bearer ${token}`, 'x-request-id': 'req-mcp-cabecalhos', origin: 'https://agente.example' })
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type')!, /^application\/json/)
    const json = await res.json() as { id: number, result: { structuredContent: Record<string, unknown> } }
    assert.equal(json.id, 7)
    assert.equal(typeof json.result.structuredContent.versao, 'string')
    assert.equal(res.headers.get('x-request-id'), 'req-mcp-cabecalhos')
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
    assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/)
    assert.equal(res.headers.get('x-frame-options'), 'DENY')
    assert.equal(res.headers.get('cache-control'), 'no-store')
    assert.equal(res.headers.get('access-control-allow-origin'), '*')
    assert.match(res.headers.get('access-control-expose-headers')!, /x-request-id.*www-authenticate/)
    assert.ok(res.headers.get('x-ratelimit-limit') ?? res.headers.get('ratelimit-limit'), 'the rate limiter\'s headers too')
    const line = logs.find((l) => l.msg === 'request' && l.reqId === 'req-mcp-cabecalhos')
    assert.deepEqual([line?.method, line?.path, line?.status], ['POST', MCP_PATH, 200], 'the access log still sees the hijacked request')

    const preflight = await fetch(new URL(MCP_PATH, ctx.base), {
      method: 'OPTIONS', headers: { origin: 'https://agente.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, mcp-protocol-version' },
    })
    assert.equal(preflight.status, 204)
    assert.match(preflight.headers.get('access-control-allow-headers')!, /mcp-protocol-version/)
  })

  it('GET and DELETE answer 405 (no stream, no session) to a credential, 401 without; a batch is refused', async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['mcp'] })
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(new URL(MCP_PATH, ctx.base), { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } })
      assert.equal(res.status, 405, method)
      assert.equal(res.headers.get('allow'), 'POST')
      assert.equal((await fetch(new URL(MCP_PATH, ctx.base), { method })).status, 401, method)
    }
    const batch = await rpc(ctx.base, [toolCall(1, 'versao'), toolCall(2, 'versao')], { authorization: `Bearer ${token}` })
    assert.equal(batch.status, 400)
    assert.deepEqual(await batch.json(), { detail: 'requisicao_invalida' })
  })

  it('the metadata documents (RFC 9728) are public JSON: resource, scopes, header bearer method, DPoP algorithms, no authorization server', async () => {
    const mcp = await fetch(METADATA_URL.replace(PUBLIC_URL, ctx.base))
    assert.equal(mcp.status, 200)
    assert.match(mcp.headers.get('content-type')!, /^application\/json/)
    assert.equal(mcp.headers.get('access-control-allow-origin'), '*', 'a browser-based client reads it from anywhere')
    const doc = await mcp.json() as Record<string, unknown>
    assert.equal(doc.resource, `${PUBLIC_URL}/api/mcp`)
    assert.deepEqual(doc.scopes_supported, ['mcp'])
    assert.deepEqual(doc.bearer_methods_supported, ['header'])
    assert.deepEqual(doc.dpop_signing_alg_values_supported, [...DEFAULT_DPOP_ALGORITHMS])
    assert.ok(!('authorization_servers' in doc))
    const root = await (await fetch(new URL('/.well-known/oauth-protected-resource', ctx.base))).json() as Record<string, unknown>
    assert.equal(root.resource, PUBLIC_URL)
    assert.deepEqual(root.scopes_supported, ['conta', 'tokens', 'mcp', 'cadastro', 'operacoes', 'aprovacao', 'financeiro', 'cobranca', 'webhooks'])
  })
})
