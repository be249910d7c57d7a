// Cedentes and sacados through the API, as a customer's integration uses them: documents kept bare (the
// alphanumeric CNPJ included), every rule refused at once with the contract's 422, duplicates answered with the
// id that holds them, money as safe integers, pages newest first, changes audited, another customer's ids not found.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { bearer, issueToken } from '../../../test/helpers/api-credentials.ts'
import { auditRows, customer, rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const CNPJ_ALFA = '12.ABC.345/01DE-35' // the Receita's published example
const CNPJ = '11.222.333/0001-81'
const CPF = '111.444.777-35'

const cedenteBody = (over: Record<string, unknown> = {}) => ({
  documento: CNPJ, razao_social: 'Metalúrgica Exemplo Ltda', perfil_iof: 'pj', municipio_ibge: '3550308', uf: 'SP',
  contas_bancarias: [{ banco: '341', agencia: '0001', conta: '123456', digito: '7', titular_documento: '11222333000181' }],
  ...over,
})

describe('registers: cedentes and sacados', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const setup = async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'] })
    const post = (url: string, payload: object, headers: Record<string, string> = {}) => bearer(ctx.app, token, 'POST', url, { payload, headers })
    const get = (url: string) => bearer(ctx.app, token, 'GET', url)
    const patch = (url: string, payload: object) => ctx.app.inject({ method: 'PATCH', url, payload, headers: { authorization: `Bearer ${token}` } })
    return { c, token, post, get, patch }
  }

  it('creates a cedente: the document bare, its accounts, 201 with every field, an audit row with the request id', async () => {
    const { c, post } = await setup()
    const res = await post('/api/cedentes', cedenteBody({ id_externo: 'ERP-1', limite_centavos: 5_000_000_00 }), { 'x-request-id': 'cad-1' })
    assert.equal(res.statusCode, 201, res.body)
    const body = res.json()
    assert.equal(body.documento, '11222333000181')
    assert.equal(body.tipo_pessoa, 'pj')
    assert.equal(body.limite_centavos, 500_000_000)
    assert.equal(body.estado, 'ativo')
    const [conta] = body.contas_bancarias
    assert.deepEqual({ ...conta, id: typeof conta.id, incluida_em: typeof conta.incluida_em }, {
      id: 'string', banco: '341', agencia: '0001', conta: '123456', digito: '7', titular_documento: '11222333000181',
      // Given at registration: usable at once, confirmed by no one but the registration itself.
      confirmada: true, incluida_em: 'string', incluida_por_usuario_id: null, confirmada_em: conta.incluida_em, confirmada_por_usuario_id: null,
    })
    const [row] = await rowsAs<{ documento: string, limite_centavos: string }>(ctx.db, c.id,
      `SELECT documento, limite_centavos::text FROM cedentes WHERE id = '${body.id}'`)
    assert.deepEqual(row, { documento: '11222333000181', limite_centavos: '500000000' })
    const audit = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'cedente.criado')
    assert.deepEqual(audit.map((r) => [r.alvo_id, r.request_id_cliente]), [[body.id, 'cad-1']])
  })

  it('the alphanumeric CNPJ and a CPF are kept bare and upper-case; a sacado has no IOF profile or accounts', async () => {
    const { post } = await setup()
    const alfa = await post('/api/sacados', { documento: CNPJ_ALFA.toLowerCase(), razao_social: 'Comprador Alfa' })
    assert.equal(alfa.statusCode, 201, alfa.body)
    assert.deepEqual([alfa.json().documento, alfa.json().tipo_pessoa], ['12ABC34501DE35', 'pj'])
    assert.equal(alfa.json().perfil_iof, undefined)
    const pf = await post('/api/sacados', { documento: CPF, razao_social: 'Maria Compradora' })
    assert.deepEqual([pf.json().documento, pf.json().tipo_pessoa], ['11144477735', 'pf'])
  })

  it('a sacado\'s address (what its remessa prints): given, read back, changed and cleared; refused out of shape; a cedente has none', async () => {
    const { c, post, patch, get } = await setup()
    const endereco = { logradouro: 'Rua das Acácias', numero: '100', complemento: 'sala 2', bairro: 'Centro', cep: '13010000', cidade: 'Campinas', uf: 'SP' }
    const made = await post('/api/sacados', { documento: CPF, razao_social: 'Maria Compradora', ...endereco })
    assert.equal(made.statusCode, 201, made.body)
    const url = `/api/sacados/${made.json().id}`
    const read = (await get(url)).json()
    assert.deepEqual([read.logradouro, read.numero, read.complemento, read.bairro, read.cep, read.cidade, read.uf],
      ['Rua das Acácias', '100', 'sala 2', 'Centro', '13010000', 'Campinas', 'SP'])
    // A CEP typed with its hyphen is kept as its digits.
    const changed = await patch(url, { complemento: null, cep: '13010-001' })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.deepEqual([changed.json().complemento, changed.json().cep, changed.json().logradouro], [null, '13010001', 'Rua das Acácias'])
    const audit = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'sacado.alterado').at(-1)!
    assert.deepEqual(audit.alteracoes, { complemento: { antes: 'sala 2', depois: null }, cep: { antes: '13010000', depois: '13010001' } })
    const bad = await patch(url, { cep: '1301-0000', uf: 'XX', logradouro: 'Rua\u202e', cidade: '   ' })
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual((bad.json().detail as { loc: string[] }[]).map((i) => i.loc.join('.')).sort(),
      ['body.cep', 'body.cidade', 'body.logradouro', 'body.uf'])
    const none = await post('/api/sacados', { documento: CNPJ_ALFA, razao_social: 'Sem Endereço' })
    assert.deepEqual([none.json().logradouro, none.json().cep], [null, null])
    const cedente = await post('/api/cedentes', cedenteBody({ logradouro: 'Rua' }))
    assert.equal(cedente.statusCode, 422, 'the cedente takes no address here')
  })

  it('every broken rule at once: check digits, an exemption without its reason, an account of someone else, a control character', async () => {
    const { post } = await setup()
    const res = await post('/api/cedentes', cedenteBody({
      documento: '11.222.333/0001-82', perfil_iof: 'isento', nome_fantasia: 'Exemplo\u202e',
    }))
    assert.equal(res.statusCode, 422, res.body)
    const locs = (res.json().detail as { loc: (string | number)[] }[]).map((i) => i.loc.join('.')).sort()
    assert.deepEqual(locs, ['body.documento', 'body.motivo_isencao', 'body.nome_fantasia'])
    const holder = await post('/api/cedentes', cedenteBody({
      contas_bancarias: [{ banco: '001', agencia: '1', conta: '2', digito: 'x', titular_documento: CPF }],
    }))
    assert.equal(holder.statusCode, 422)
    assert.deepEqual(holder.json().detail.map((i: { loc: unknown[] }) => i.loc), [['body', 'contas_bancarias', 0, 'titular_documento']])
  })

  it('money is an integer of centavos up to 2^53 − 1: a fraction, a string or more is a 422', async () => {
    const { post } = await setup()
    for (const limite of [1.5, '100', 2 ** 53, -1]) {
      const res = await post('/api/sacados', { documento: CPF, razao_social: 'Maria', limite_centavos: limite })
      assert.equal(res.statusCode, 422, `${limite}: ${res.body}`)
      assert.deepEqual(res.json().detail[0].loc, ['body', 'limite_centavos'])
    }
    const max = await post('/api/sacados', { documento: CPF, razao_social: 'Maria', limite_centavos: Number.MAX_SAFE_INTEGER })
    assert.equal(max.json().limite_centavos, Number.MAX_SAFE_INTEGER)
  })

  it('a document or an id_externo the customer has already: 409 with the id that holds it; another customer may have both', async () => {
    const { post } = await setup()
    const first = (await post('/api/cedentes', cedenteBody({ id_externo: 'C-1' }))).json()
    const sameDoc = await post('/api/cedentes', cedenteBody({ documento: '11222333000181', id_externo: 'C-2' }))
    assert.equal(sameDoc.statusCode, 409)
    assert.deepEqual(sameDoc.json(), { detail: 'documento_em_uso', id: first.id })
    const sameExt = await post('/api/cedentes', cedenteBody({ documento: CNPJ_ALFA, id_externo: 'C-1', contas_bancarias: [] }))
    assert.deepEqual(sameExt.json(), { detail: 'id_externo_em_uso', id: first.id })
    // The same document as a sacado is another kind: allowed.
    assert.equal((await post('/api/sacados', { documento: CNPJ, razao_social: 'Metalúrgica Exemplo Ltda', id_externo: 'C-1' })).statusCode, 201)
    const other = await setup()
    assert.equal((await other.post('/api/cedentes', cedenteBody({ id_externo: 'C-1' }))).statusCode, 201)
  })

  it('an Idempotency-Key replays the first answer and makes one register', async () => {
    const { c, post } = await setup()
    const a = await post('/api/sacados', { documento: CPF, razao_social: 'Maria' }, { 'idempotency-key': 'sac-1' })
    const b = await post('/api/sacados', { documento: CPF, razao_social: 'Maria' }, { 'idempotency-key': 'sac-1' })
    assert.equal(b.statusCode, 201)
    assert.equal(b.body, a.body)
    assert.equal(b.headers['idempotent-replayed'], 'true')
    assert.equal((await rowsAs(ctx.db, c.id, 'SELECT id FROM sacados')).length, 1)
  })

  it('lists newest first a page at a time, filtered by documento (any punctuation), estado and id_externo', async () => {
    const { post, get, patch } = await setup()
    const docs = ['11144477735', '52998224725', '39053344705']
    const ids: string[] = []
    for (const [i, documento] of docs.entries()) {
      ids.push((await post('/api/sacados', { documento, razao_social: `Sacado ${i}`, id_externo: `S${i}` })).json().id)
    }
    const first = (await get('/api/sacados?limite=2')).json()
    assert.deepEqual(first.itens.map((s: { id: string }) => s.id), [ids[2], ids[1]])
    const second = (await get(`/api/sacados?limite=2&antes=${first.proximo}`)).json()
    assert.deepEqual([second.itens.map((s: { id: string }) => s.id), second.proximo], [[ids[0]], null])
    assert.deepEqual((await get('/api/sacados?documento=529.982.247-25')).json().itens.map((s: { id: string }) => s.id), [ids[1]])
    assert.deepEqual((await get('/api/sacados?id_externo=S0')).json().itens.map((s: { id: string }) => s.id), [ids[0]])
    await patch(`/api/sacados/${ids[0]}`, { estado: 'bloqueado' })
    assert.deepEqual((await get('/api/sacados?estado=bloqueado')).json().itens.map((s: { id: string }) => s.id), [ids[0]])
    assert.equal((await get('/api/sacados?documento=123')).statusCode, 422)
    assert.equal((await get('/api/sacados?limite=201')).statusCode, 422)
  })

  it('a change names only what changes, replaces the accounts, blocks; the document never changes; audited', async () => {
    const { c, post, patch, get } = await setup()
    const made = (await post('/api/cedentes', cedenteBody())).json()
    const url = `/api/cedentes/${made.id}`
    const changed = await patch(url, { razao_social: 'Metalúrgica Exemplo S.A.', estado: 'bloqueado', telefone: null })
    assert.equal(changed.statusCode, 200, changed.body)
    // This token has no person: it adds no bank account (a person adds it, another confirms it; issue 31 item 6).
    const account = await patch(url, { contas_bancarias: [{ banco: '237', agencia: '1234', conta: '99', digito: '0', titular_documento: CNPJ }] })
    assert.equal(account.statusCode, 403, account.body)
    assert.equal(account.json().detail, 'aprovacao_pelo_mesmo_usuario')
    const now = (await get(url)).json()
    assert.deepEqual([now.razao_social, now.estado, now.perfil_iof, now.contas_bancarias.map((k: { banco: string }) => k.banco)],
      ['Metalúrgica Exemplo S.A.', 'bloqueado', 'pj', ['341']])
    assert.equal((await patch(url, { documento: CPF })).statusCode, 422)
    assert.equal((await patch(url, {})).statusCode, 422)
    assert.equal((await patch(url, { perfil_iof: 'isento' })).statusCode, 422, 'an exemption needs its reason')
    const exempt = await patch(url, { perfil_iof: 'isento', motivo_isencao: 'comprador_fidc' })
    assert.deepEqual([exempt.json().perfil_iof, exempt.json().motivo_isencao], ['isento', 'comprador_fidc'])
    const back = await patch(url, { perfil_iof: 'pj' })
    assert.deepEqual([back.json().perfil_iof, back.json().motivo_isencao], ['pj', null])
    assert.equal((await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'cedente.alterado').length, 3, 'the refused changes left no row')
  })

  it('another customer\'s id, or no id at all, is not found: read and change alike', async () => {
    const mine = await setup()
    const theirs = await setup()
    const id = (await theirs.post('/api/cedentes', cedenteBody())).json().id
    for (const url of [`/api/cedentes/${id}`, '/api/cedentes/nao-e-um-uuid', '/api/sacados/00000000-0000-4000-8000-000000000000']) {
      const read = await mine.get(url)
      assert.deepEqual([read.statusCode, read.json()], [404, { detail: 'nao_encontrado' }], url)
    }
    assert.equal((await mine.patch(`/api/cedentes/${id}`, { estado: 'bloqueado' })).statusCode, 404)
    assert.equal((await theirs.get(`/api/cedentes/${id}`)).json().estado, 'ativo')
    assert.deepEqual((await mine.get('/api/cedentes')).json().itens, [])
  })

  it('the scope cadastro is needed; the routes are in the customers\' document', async () => {
    const { c } = await setup()
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['conta'] })
    const refused = await bearer(ctx.app, token, 'GET', '/api/cedentes')
    assert.deepEqual([refused.statusCode, refused.json().detail], [403, 'escopo_insuficiente'])
    const doc = (await bearer(ctx.app, token, 'GET', '/api/conta/openapi.json')).json()
    for (const path of ['/cedentes', '/cedentes/{id}', '/sacados', '/sacados/{id}']) assert.ok(doc.paths[path], path)
    assert.ok(doc.paths['/cedentes'].post.requestBody)
    assert.match(doc.paths['/cedentes'].post.description, /Needs the scope `cadastro`/)
  })

  it('the database holds a bank account to its cedente\'s own document', async () => {
    const { c, post } = await setup()
    const id = (await post('/api/cedentes', cedenteBody())).json().id
    await assert.rejects(withTenant(ctx.db, c.id, (tx) => tx.execute(sql`INSERT INTO cedente_contas
      (cliente_id, cedente_id, ordem, banco, agencia, conta, digito, titular_documento)
      VALUES (${c.id}, ${id}, 5, '001', '1', '2', '3', '11144477735')`)), (err: Error & { cause?: { code?: string } }) => err.cause?.code === '23503')
  })
})
