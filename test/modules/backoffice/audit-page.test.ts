// People, not ids (issue 32, item 8): /conta/auditoria shows who by name, the action in words, the target as a
// link to its page and what changed before → after; its GET filter form keeps person, action, target and period
// in the URL, and the next page keeps them; another customer's rows never show.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { AUDIT_ACTIONS } from '../../../src/platform/tenancy/audit/store.ts'
import { ACTION_LABELS } from '../../../src/modules/backoffice/audit-labels.ts'
import { personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { callerFor, created, EXAMPLE_NOW, formalizedExample, settableClock } from '../operations/helpers.ts'
import { rowCells, signIn } from './steps.ts'

/** The audit rows' ids on a page, in order. */
const rowIds = (html: string) => [...html.matchAll(/data-auditoria="(\d+)"/g)].map((m) => Number(m[1]))

describe('the audit page', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('has words for every action the trail records', () => {
    assert.deepEqual(AUDIT_ACTIONS.filter((a) => !ACTION_LABELS[a]), [])
  })

  it('names who and what, links the target, shows before → after, and filters by URL', async () => {
    clock.set(EXAMPLE_NOW)
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId, clock)
    const { op, cedente } = await formalizedExample(call)
    created(await call('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { limite_centavos: 500_000 }), 200)
    const web = await signIn(ctx.app, admin.email)
    await web.done('/conta/sacados', 'form-sacado', { documento: '39053344705', razao_social: 'Sacado Pela Página' })
    const trail = created(await call('GET', '/api/conta/auditoria?limite=200'), 200).itens as { id: number, acao: string }[]
    const rowOf = (acao: string) => trail.find((a) => a.acao === acao)!.id

    const page = (await web.get('/conta/auditoria')).body
    assert.deepEqual(rowCells(page, `data-auditoria="${rowOf('cedente.alterado')}"`), {
      'Ação': 'Cedente alterado', 'Quem': 'token da pessoa (token)', 'Alvo': 'Cedente Exemplo Ltda',
      'O que mudou': 'Limite (R$): — → R$ 5.000,00', 'Requisição': rowCells(page, `data-auditoria="${rowOf('cedente.alterado')}"`)['Requisição']!,
      'Requisição do cliente': '—',
    })
    const changed = page.slice(page.indexOf(`data-auditoria="${rowOf('cedente.alterado')}"`))
    assert.match(changed, new RegExp(`<a href="/conta/cedentes/${cedente.id}">Cedente Exemplo Ltda</a>`))
    const formalized = page.slice(page.indexOf(`data-auditoria="${rowOf('operacao.formalizada')}"`))
    assert.match(formalized.slice(0, 2000), new RegExp(`<a href="/conta/operacoes/${op.id}">Operação nº ${op.numero}</a>`))
    const byPerson = rowCells(page, `data-auditoria="${rowOf('sacado.criado')}"`)
    assert.equal(byPerson['Quem'], 'Ana Souza', 'the person who used the form, by name')
    assert.equal(byPerson['Ação'], 'Sacado cadastrado')
    assert.doesNotMatch(page, /<td data-rotulo="Ação"><span title="[^"]+">[a-z_]+\.[a-z_]+</, 'no raw action code shown')
    // A target with no name by its kind in a word ("sessão", "convite", "empresa"), never a code and an id's first letters.
    assert.doesNotMatch(page, /<td data-rotulo="Alvo">(<a [^>]+>)?[a-z_]+ [0-9a-f]{8}</, 'no "sessao 439b7c9b"')
    assert.match(page, /<td data-rotulo="Alvo"><a href="\/conta\/pessoas">sessão<\/a><\/td>/, 'Ana\'s sign-in: a session')
    assert.match(page, /^<caption>As \d+ mais recentes<\/caption>$/m)

    // Filtered by action and target: the URL keeps both, the form shows them chosen.
    const ofOp = (await web.get(`/conta/auditoria?acao=operacao.cotada&alvo_id=${op.id}`)).body
    assert.deepEqual(rowIds(ofOp), [rowOf('operacao.cotada')])
    assert.match(ofOp, /<caption>Filtrada: a mais recente<\/caption>/, 'not "Filtradas: as 1 mais recentes"')
    assert.match(ofOp, /<option value="operacao.cotada" selected>Operação cotada<\/option>/)
    assert.match(ofOp, new RegExp(`id="filtro-alvo" name="alvo_id" type="text" value="${op.id}"`))
    // By person: only what Ana did herself (her sacado and her login), not her token's.
    const hers = (await web.get(`/conta/auditoria?ator_id=${admin.usuarioId}`)).body
    assert.ok(rowIds(hers).length >= 1)
    assert.ok(!rowIds(hers).includes(rowOf('cedente.alterado')))
    assert.match(hers, new RegExp(`<option value="${admin.usuarioId}" selected>Ana Souza</option>`))
    // By period, in Brasília's days.
    // (Ana's invitation and first login were at the machine's real time, after the test's clock: outside.)
    const empty = (await web.get('/conta/auditoria?de=2026-10-06&ate=2026-10-31')).body
    assert.deepEqual(rowIds(empty), [])
    assert.match(empty, /Nada registrado com estes filtros\./)
    const day = rowIds((await web.get('/conta/auditoria?de=2026-10-05&ate=2026-10-05')).body)
    assert.ok(day.includes(rowOf('cedente.alterado')) && day.includes(rowOf('operacao.formalizada')))
    assert.ok(!day.includes(rowOf('convite.aceito')), 'a row of another day')

    // The next page keeps the filters.
    for (let i = 0; i < 101; i++) {
      created(await call('POST', '/api/feriados', { data: `2027-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        descricao: `Feriado ${i}`, uf: 'SP' }))
    }
    const first = (await web.get('/conta/auditoria?acao=feriado.criado')).body
    assert.equal(rowIds(first).length, 100)
    assert.match(first, /<caption>Filtradas: as 100 mais recentes<\/caption>/)
    const more = /<a href="([^"]+)" id="mais-antigas">/.exec(first)![1]!.replaceAll('&amp;', '&')
    assert.match(more, /acao=feriado\.criado/)
    const second = (await web.get(more)).body
    assert.equal(rowIds(second).length, 1)
    assert.match(second, /Feriado incluído/)

    // Another customer's rows never, even asked by their target's id.
    const other = await personWithPassword(ctx.db)
    const theirs = await formalizedExample(await callerFor(ctx.db, ctx.app, other.clienteId, other.usuarioId, clock))
    assert.deepEqual(rowIds((await web.get(`/conta/auditoria?alvo_id=${theirs.op.id}`)).body), [])
    // A filter the API refuses is a 422 in words, never a 500.
    const bad = await web.get('/conta/auditoria?acao=operacao.inventada')
    assert.equal(bad.statusCode, 422)
  })
})
