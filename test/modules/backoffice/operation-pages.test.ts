// An operation's page in the back office shows a page of its títulos (the API answers 200 at a time, issue 31
// item 9): the count of all of them, where the page sits, and links to the next page and back to the first; and
// the operation by its number within the customer ("Operação nº 1"), as its borderô and ledger say.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { created, EXAMPLE_NOW, exampleRegisters, exampleTitles, settableClock, type Caller } from '../operations/helpers.ts'
import { signIn } from './steps.ts'

describe('an operation of many títulos in the back office', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('counts all its títulos, shows 200 and leads to the next page and back; names it by its number', async () => {
    const admin = await personWithPassword(ctx.db)
    const web = await signIn(ctx.app, admin.email)
    const { token } = await issueToken(ctx.db, admin.clienteId, { escopos: ['cadastro', 'operacoes'], clock })
    const call: Caller = (method, url, payload) => bearer(ctx.app, token, method as 'GET', url, payload ? { payload } : {})
    const regs = await exampleRegisters(call)
    const base = exampleTitles(regs.sacados.map((s: { id: string }) => s.id))
    const titulos = Array.from({ length: 250 }, (_, i) => ({ ...base[i % 3]!, numero: `P-${i + 1}` }))
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos }))

    const first = (await web.get(`/conta/operacoes/${op.id}`)).body
    assert.match(first, /<h1[^>]*>Operação nº 1<\/h1>/)
    assert.match(first, /Títulos da operação \(250\)/)
    assert.equal([...first.matchAll(/<tr data-titulo=/g)].length, 200)
    assert.match(first, /Mostrando 200 de 250 títulos\./)
    const next = /<a href="([^"]+)" id="titulos-proximos">Próximos títulos<\/a>/.exec(first)?.[1]
    assert.ok(next, 'a link to the next page')
    assert.doesNotMatch(first, /id="titulos-inicio"/)

    const second = (await web.get(next.replaceAll('&amp;', '&'))).body
    assert.equal([...second.matchAll(/<tr data-titulo=/g)].length, 50)
    assert.match(second, />P-201</)
    assert.doesNotMatch(second, />P-1</)
    assert.match(second, /Mostrando 50 de 250 títulos\./)
    assert.match(second, /<a href="\/conta\/operacoes\/[^"]+" id="titulos-inicio">Primeiros títulos<\/a>/)
    assert.doesNotMatch(second, /id="titulos-proximos"/)

    const list = (await web.get('/conta/operacoes')).body
    assert.match(list, /<a href="\/conta\/operacoes\/[^"]+">nº 1<\/a>/)
  })
})
