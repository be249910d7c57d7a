// A cedente's IOF profile fits the party (issue 31 item 4): a CPF cedente was stored as `pj`. `pj` and `pj_simples`
// need a CNPJ and `pf` a CPF, on registration and on a change; `pj_simples` records the cedente's Simples Nacional
// declaration (its day, not after today in Brasília, and the signed document's SHA-256); `isento` takes its reason
// from a list, each with its legal basis in the customers' docs. The database refuses what the API refuses.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { MOTIVOS_ISENCAO } from '../../../src/modules/origination/registers/iof-profile.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer, rowsAs } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { manualClock } from '../../helpers/jobs.ts'

const CNPJ = '11.222.333/0001-81'
const CNPJ_ALFA = '12.ABC.345/01DE-35'
const CPF = '111.444.777-35'
const CPF_2 = '529.982.247-25'
// 23:30 on 5 October 2026 in Brasília: already the 6th in UTC.
const NOW = '2026-10-06T02:30:00Z'
const SHA = 'ab'.repeat(32)
const DECLARACAO = { data: '2026-10-05', sha256: SHA.toUpperCase() }

type Item = { type: string, loc: (string | number)[], msg: string, input: unknown, ctx?: Record<string, unknown> }
/** A statement the database refused, as drizzle wraps the driver's error. */
type DbError = Error & { cause?: { code?: string, constraint?: string } }

describe('a cedente\'s IOF profile fits the party', () => {
  const clock = manualClock(NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })
  const setup = async () => {
    const c = await customer(ctx.db, undefined, clock.now())
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'], clock })
    const post = (payload: object) => bearer(ctx.app, token, 'POST', '/api/cedentes', { payload })
    const patch = (id: string, payload: object) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/cedentes/${id}`, payload, headers: { authorization: `Bearer ${token}` } })
    const cedente = (documento: string, perfil: string, more: object = {}) => post({ documento, razao_social: 'Cedente Exemplo', perfil_iof: perfil, ...more })
    return { c, post, patch, cedente }
  }
  const items = (res: { json(): { detail: Item[] } }) => res.json().detail

  it('pj and pj_simples need a CNPJ, pf a CPF, isento either: a 422 at perfil_iof naming the document, on registration', async () => {
    const { cedente } = await setup()
    for (const [documento, perfil, msg] of [
      [CPF, 'pj', 'Value error, the pj profile is a company\'s and needs a CNPJ: this cedente\'s documento is a CPF'],
      [CPF, 'pj_simples', 'Value error, the pj_simples profile is a company\'s and needs a CNPJ: this cedente\'s documento is a CPF'],
      [CNPJ, 'pf', 'Value error, the pf profile is a person\'s and needs a CPF: this cedente\'s documento is a CNPJ'],
      [CNPJ_ALFA, 'pf', 'Value error, the pf profile is a person\'s and needs a CPF: this cedente\'s documento is a CNPJ'],
    ] as const) {
      const res = await cedente(documento, perfil, perfil === 'pj_simples' ? { declaracao_simples: DECLARACAO } : {})
      assert.equal(res.statusCode, 422, `${documento} ${perfil}: ${res.body}`)
      assert.deepEqual(items(res), [{ type: 'value_error', loc: ['body', 'perfil_iof'], msg, input: perfil }])
    }
    const made = await Promise.all([cedente(CPF, 'pf'), cedente(CNPJ, 'pj'), cedente(CNPJ_ALFA, 'isento', { motivo_isencao: 'cooperativa' }),
      cedente(CPF_2, 'isento', { motivo_isencao: 'fins_habitacionais' })])
    assert.deepEqual(made.map((r) => [r.statusCode, r.json().tipo_pessoa, r.json().perfil_iof]),
      [[201, 'pf', 'pf'], [201, 'pj', 'pj'], [201, 'pj', 'isento'], [201, 'pf', 'isento']])
    // A document whose check digits fail is its own item: no second one about the profile.
    const bad = await cedente('111.444.777-36', 'pj')
    assert.deepEqual(items(bad).map((i) => i.loc.join('.')), ['body.documento'])
  })

  it('a change of profile is checked against the document, which never changes; the database refuses a CPF as pj', async () => {
    const { c, cedente, patch } = await setup()
    const pf = (await cedente(CPF, 'pf')).json()
    const refused = await patch(pf.id, { perfil_iof: 'pj', razao_social: 'Outro Nome' })
    assert.equal(refused.statusCode, 422)
    assert.deepEqual(items(refused).map((i) => [i.loc.join('.'), i.type]), [['body.perfil_iof', 'value_error']])
    const pj = (await cedente(CNPJ, 'pj')).json()
    assert.deepEqual(items(await patch(pj.id, { perfil_iof: 'pf' })).map((i) => i.loc.join('.')), ['body.perfil_iof'])
    const [row] = await rowsAs<{ perfil_iof: string, razao_social: string }>(ctx.db, c.id,
      `SELECT perfil_iof, razao_social FROM cedentes WHERE id = '${pf.id}'`)
    assert.deepEqual(row, { perfil_iof: 'pf', razao_social: 'Cedente Exemplo' }, 'nothing of the refused change kept')
    assert.equal((await patch(pf.id, { perfil_iof: 'isento', motivo_isencao: 'rural' })).json().perfil_iof, 'isento')

    await assert.rejects(withTenant(ctx.db, c.id, (tx) => tx.execute(sql`UPDATE cedentes SET perfil_iof = 'pj', motivo_isencao = NULL
      WHERE id = ${pf.id}`)), (err: DbError) => err.cause?.code === '23514' && err.cause.constraint === 'cedentes_perfil_do_documento')
  })

  it('pj_simples records the cedente\'s declaration (day and SHA-256), answered in its view; only pj_simples takes one', async () => {
    const { c, cedente } = await setup()
    const missing = await cedente(CNPJ, 'pj_simples')
    assert.deepEqual(items(missing), [{
      type: 'missing', loc: ['body', 'declaracao_simples'], input: null,
      msg: 'Value error, the pj_simples profile needs the cedente\'s Simples Nacional declaration',
    }])
    const notSimples = await cedente(CNPJ, 'pj', { declaracao_simples: DECLARACAO })
    assert.deepEqual(items(notSimples).map((i) => [i.loc.join('.'), i.type, i.msg]),
      [['body.declaracao_simples', 'value_error', 'Value error, only the pj_simples profile takes a Simples Nacional declaration']])

    const made = await cedente(CNPJ, 'pj_simples', { declaracao_simples: DECLARACAO })
    assert.equal(made.statusCode, 201, made.body)
    assert.deepEqual([made.json().perfil_iof, made.json().declaracao_simples], ['pj_simples', { data: '2026-10-05', sha256: SHA }], 'the hash lower-case')
    assert.equal((await cedente(CPF, 'pf')).json().declaracao_simples, null)
    const [row] = await rowsAs<{ d: string, h: string }>(ctx.db, c.id,
      `SELECT simples_declarado_em::text AS d, simples_declaracao_sha256 AS h FROM cedentes WHERE id = '${made.json().id}'`)
    assert.deepEqual(row, { d: '2026-10-05', h: SHA })
  })

  it('the declaration\'s day is a calendar day, not after today in Brasília nor before the Simples Nacional; its hash is 64 hex digits', async () => {
    const { cedente } = await setup()
    const tried = async (declaracao: object) => items(await cedente(CNPJ, 'pj_simples', { declaracao_simples: declaracao }))
      .map((i) => [i.loc.join('.'), i.type, i.msg])
    // Today in UTC, tomorrow in Brasília.
    assert.deepEqual(await tried({ ...DECLARACAO, data: '2026-10-06' }),
      [['body.declaracao_simples.data', 'value_error', 'Value error, the declaration\'s day is after today (2026-10-05, Brasília)']])
    assert.deepEqual(await tried({ ...DECLARACAO, data: '2007-06-30' }),
      [['body.declaracao_simples.data', 'value_error', 'Value error, the Simples Nacional began on 2007-07-01: no declaration is older']])
    assert.deepEqual((await tried({ ...DECLARACAO, data: '2026-02-30' })).map(([loc, type]) => [loc, type]),
      [['body.declaracao_simples.data', 'date_from_datetime_parsing']])
    assert.deepEqual((await tried({ data: DECLARACAO.data, sha256: 'xyz' })).map(([loc, type]) => [loc, type]),
      [['body.declaracao_simples.sha256', 'string_pattern_mismatch']])
    assert.deepEqual((await tried({ data: DECLARACAO.data })).map(([loc, type]) => [loc, type]), [['body.declaracao_simples.sha256', 'missing']])
    assert.equal((await cedente(CNPJ, 'pj_simples', { declaracao_simples: { data: '2007-07-01', sha256: SHA } })).statusCode, 201)
  })

  it('a change: to pj_simples needs a declaration, a new one replaces it (audited), leaving pj_simples drops it; the database holds both rules', async () => {
    const { c, cedente, patch } = await setup()
    const id = (await cedente(CNPJ, 'pj')).json().id
    assert.deepEqual(items(await patch(id, { perfil_iof: 'pj_simples' })).map((i) => [i.loc.join('.'), i.type]), [['body.declaracao_simples', 'missing']])
    assert.deepEqual(items(await patch(id, { declaracao_simples: DECLARACAO })).map((i) => i.loc.join('.')), ['body.declaracao_simples'],
      'a pj takes no declaration')
    const simples = await patch(id, { perfil_iof: 'pj_simples', declaracao_simples: { data: '2026-09-01', sha256: SHA } })
    assert.deepEqual([simples.statusCode, simples.json().declaracao_simples], [200, { data: '2026-09-01', sha256: SHA }])
    assert.equal((await patch(id, { razao_social: 'Cedente Simples Ltda' })).json().declaracao_simples.data, '2026-09-01', 'kept by an unrelated change')
    assert.deepEqual(items(await patch(id, { declaracao_simples: null })).map((i) => i.loc.join('.')), ['body.declaracao_simples'], 'not taken away')
    const renewed = await patch(id, { declaracao_simples: { data: '2026-10-01', sha256: 'cd'.repeat(32) } })
    assert.deepEqual(renewed.json().declaracao_simples, { data: '2026-10-01', sha256: 'cd'.repeat(32) })
    const audit = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'cedente.alterado').at(-1)!
    assert.deepEqual(audit.alteracoes, {
      declaracao_simples: { antes: { data: '2026-09-01', sha256: SHA }, depois: { data: '2026-10-01', sha256: 'cd'.repeat(32) } },
    })
    const back = await patch(id, { perfil_iof: 'pj' })
    assert.deepEqual([back.json().perfil_iof, back.json().declaracao_simples], ['pj', null])

    const refused = (statement: ReturnType<typeof sql>, constraint: string) => assert.rejects(withTenant(ctx.db, c.id, (tx) => tx.execute(statement)),
      (err: DbError) => err.cause?.code === '23514' && err.cause.constraint === constraint)
    await refused(sql`UPDATE cedentes SET perfil_iof = 'pj_simples' WHERE id = ${id}`, 'cedentes_declaracao_simples')
    await refused(sql`UPDATE cedentes SET simples_declarado_em = '2026-10-01', simples_declaracao_sha256 = ${SHA} WHERE id = ${id}`,
      'cedentes_declaracao_simples')
    await refused(sql`UPDATE cedentes SET perfil_iof = 'pj_simples', simples_declarado_em = '2026-10-01', simples_declaracao_sha256 = ${SHA.toUpperCase()}
      WHERE id = ${id}`, 'cedentes_declaracao_simples_forma')
  })

  it('isento\'s reason is a code of the list, free text refused; every code is stored, and the docs give each one\'s label and legal basis', async () => {
    const { c, cedente, patch } = await setup()
    const free = await cedente(CNPJ, 'isento', { motivo_isencao: 'FIDC: art. 8º do Decreto 6.306' })
    assert.equal(free.statusCode, 422)
    const [item] = items(free)
    assert.deepEqual([item!.type, item!.loc, item!.input], ['literal_error', ['body', 'motivo_isencao'], 'FIDC: art. 8º do Decreto 6.306'])
    assert.match(item!.msg, /^Input should be 'comprador_fidc', 'comprador_securitizadora', .* or 'missao_diplomatica'$/)
    assert.deepEqual(items(await cedente(CNPJ, 'isento')).map((i) => [i.loc.join('.'), i.type]), [['body.motivo_isencao', 'missing']])
    assert.deepEqual(items(await cedente(CNPJ, 'pj', { motivo_isencao: 'comprador_fidc' })).map((i) => i.loc.join('.')), ['body.motivo_isencao'])

    const documentos = ['11222333000181', '12ABC34501DE35', '11144477735', '52998224725', '39053344705', '12345678909', '98765432100', '33000167000101']
    for (const [i, m] of MOTIVOS_ISENCAO.entries()) {
      const res = await cedente(documentos[i]!, 'isento', { motivo_isencao: m.codigo })
      assert.deepEqual([res.statusCode, res.json().motivo_isencao], [201, m.codigo], res.body)
    }
    const id = (await rowsAs<{ id: string }>(ctx.db, c.id, "SELECT id FROM cedentes WHERE documento = '11222333000181'"))[0]!.id
    assert.equal((await patch(id, { motivo_isencao: 'isento porque sim' })).statusCode, 422)
    await assert.rejects(withTenant(ctx.db, c.id, (tx) => tx.execute(sql`UPDATE cedentes SET motivo_isencao = 'isento porque sim' WHERE id = ${id}`)),
      (err: DbError) => err.cause?.code === '23514' && err.cause.constraint === 'cedentes_motivo_isencao_codigo')

    const docs = readFileSync(new URL('../../../content/docs.md', import.meta.url), 'utf8')
    for (const m of MOTIVOS_ISENCAO) assert.ok(docs.includes(`| \`${m.codigo}\` | ${m.rotulo} | ${m.base} |`), `docs.md lists ${m.codigo}`)
  })
})
