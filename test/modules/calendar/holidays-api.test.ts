// /api/feriados: the national bank holidays as produto.md §2.3 lists them for 2026, and the customer's own for a
// municipality or its state, added once (409 with the id), removed (audited), each rule refused with its 422 item.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'

const SAO_PAULO = '3550308'
const RIO = '3304557'
const NATIONAL_2026 = ['2026-01-01', '2026-02-16', '2026-02-17', '2026-04-03', '2026-04-21', '2026-05-01', '2026-06-04', '2026-09-07',
  '2026-10-12', '2026-11-02', '2026-11-15', '2026-11-20', '2026-12-25']

describe('/api/feriados', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })
  const setup = async () => {
    const c = await customer(ctx.db)
    const { token } = await issueToken(ctx.db, c.id, { escopos: ['cadastro'] })
    return {
      c,
      get: (q: string) => bearer(ctx.app, token, 'GET', `/api/feriados?${q}`),
      post: (payload: object) => bearer(ctx.app, token, 'POST', '/api/feriados', { payload }),
      del: (id: string) => bearer(ctx.app, token, 'DELETE', `/api/feriados/${id}`),
    }
  }
  type Item = { id: string | null, data: string, abrangencia: string, uf: string | null }

  it('the national bank holidays of 2026 are the contract\'s thirteen, computed', async () => {
    const { get } = await setup()
    const res = await get('de=2026-01-01&ate=2026-12-31')
    assert.equal(res.statusCode, 200, res.body)
    const items = res.json().itens as Item[]
    assert.deepEqual(items.map((h) => h.data), NATIONAL_2026)
    assert.ok(items.every((h) => h.abrangencia === 'nacional' && h.id === null))
  })

  it('the customer\'s own apply to their municipality and to every municipality of their state', async () => {
    const { get, post } = await setup()
    const city = await post({ data: '2026-01-25', descricao: 'Aniversário de São Paulo', municipio_ibge: SAO_PAULO })
    assert.equal(city.statusCode, 201, city.body)
    assert.deepEqual([city.json().abrangencia, city.json().uf], ['municipal', 'SP'])
    const state = (await post({ data: '2026-07-09', descricao: 'Revolução Constitucionalista', uf: 'SP' })).json()
    const own = async (q: string) => ((await get(q)).json().itens as Item[]).filter((h) => h.abrangencia !== 'nacional').map((h) => h.id)
    assert.deepEqual(await own(`de=2026-01-01&ate=2026-12-31&municipio_ibge=${SAO_PAULO}`), [city.json().id, state.id])
    assert.deepEqual(await own(`de=2026-01-01&ate=2026-12-31&municipio_ibge=${RIO}`), [])
    assert.deepEqual(await own('de=2026-01-01&ate=2026-12-31'), [city.json().id, state.id])
    assert.deepEqual(await own(`de=2026-02-01&ate=2026-06-30&municipio_ibge=${SAO_PAULO}`), [])
  })

  it('a holiday the customer has for that day and place is 409 feriado_existente with its id', async () => {
    const { post } = await setup()
    const first = (await post({ data: '2026-01-25', descricao: 'Aniversário', municipio_ibge: SAO_PAULO })).json()
    const again = await post({ data: '2026-01-25', descricao: 'Outro nome', municipio_ibge: SAO_PAULO })
    assert.deepEqual([again.statusCode, again.json()], [409, { detail: 'feriado_existente', id: first.id }])
    assert.equal((await post({ data: '2026-01-25', descricao: 'O estado', uf: 'SP' })).statusCode, 201, 'another place')
  })

  it('each rule is a 422 item: both places or neither, a day that does not exist, a backwards range, an IBGE code of no state', async () => {
    const { get, post } = await setup()
    const loc = async (res: Promise<{ statusCode: number, json(): { detail: { loc: unknown[] }[] } }>) => {
      const r = await res
      assert.equal(r.statusCode, 422)
      return r.json().detail.map((i) => i.loc.join('.'))
    }
    assert.deepEqual(await loc(post({ data: '2026-01-25', descricao: 'x2', municipio_ibge: SAO_PAULO, uf: 'SP' })), ['body'])
    assert.deepEqual(await loc(post({ data: '2026-01-25', descricao: 'x2' })), ['body'])
    assert.deepEqual(await loc(post({ data: '2026-02-30', descricao: 'x2', uf: 'SP' })), ['body.data'])
    assert.deepEqual(await loc(post({ data: '2026-01-25', descricao: 'x2', municipio_ibge: '9999999' })), ['body.municipio_ibge'])
    // Outside the days the table keeps: the field's item, not the database's refusal.
    assert.deepEqual(await loc(post({ data: '1970-01-01', descricao: 'x2', uf: 'SP' })), ['body.data'])
    assert.deepEqual(await loc(post({ data: '2200-01-01', descricao: 'x2', uf: 'SP' })), ['body.data'])
    for (const data of ['2000-01-01', '2199-12-31']) assert.equal((await post({ data, descricao: 'x2', uf: 'SP' })).statusCode, 201, data)
    assert.deepEqual(await loc(get('de=2026-12-31&ate=2026-01-01')), ['querystring.ate'])
    assert.deepEqual(await loc(get('de=2026-01-01&ate=2040-01-01')), ['querystring.ate'])
    assert.deepEqual(await loc(get('de=2026-13-01&ate=2026-12-01')), ['querystring.de'])
  })

  it('removes one (204, audited); again, or another customer\'s, is 404', async () => {
    const mine = await setup()
    const theirs = await setup()
    const h = (await mine.post({ data: '2026-01-25', descricao: 'Aniversário', municipio_ibge: SAO_PAULO })).json()
    assert.equal((await theirs.del(h.id)).statusCode, 404)
    assert.equal((await mine.del(h.id)).statusCode, 204)
    assert.equal((await mine.del(h.id)).statusCode, 404)
    assert.equal((await mine.del('nao-e-uuid')).statusCode, 404)
    const audit = (await auditRows(ctx.db, mine.c.id)).filter((r) => String(r.acao).startsWith('feriado.'))
    assert.deepEqual(audit.map((r) => [r.acao, r.alvo_id]).sort(), [['feriado.criado', h.id], ['feriado.removido', h.id]])
  })
})
