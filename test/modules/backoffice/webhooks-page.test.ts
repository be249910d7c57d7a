// The back office's webhooks (issue 34): /conta/webhooks lists the endpoints with their state and what waits; an
// administrador sends a test event and turns one off and on; an endpoint's page is its delivery log, filtered by state,
// with one delivery's body and tries, and a button that sends it again. A person who only reads sees no button, and
// the secret is on no page.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { colleagueWithPassword, personWithPassword } from '../../helpers/account-web.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'
import { callerFor, created, EXAMPLE_NOW, formalizedExample, settableClock } from '../operations/helpers.ts'
import { receiver } from '../webhooks/receiver.ts'
import { rowCells, signIn } from './steps.ts'

describe('the back office\'s webhooks', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({
    env: { MAIL_WORKER: 'off', WEBHOOK_WORKER: 'on', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_MAX_MS: '60' },
    deps: { clock },
  })

  it('lists the endpoints, sends a test, shows the log with a delivery\'s body and tries, sends one again, turns one off and on', async (t) => {
    const rec = await receiver()
    t.after(() => rec.close())
    const admin = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, admin.clienteId, admin.usuarioId, clock)
    const made = created(await call('POST', '/api/webhooks', { url: rec.url, eventos: ['operacao.criada'], descricao: 'ERP da empresa' }))
    await formalizedExample(call)
    await rec.count(1)

    const web = await signIn(ctx.app, admin.email)
    const list = await web.get('/conta/webhooks')
    assert.equal(list.statusCode, 200)
    assert.match(list.body, /<a href="\/conta\/webhooks" aria-current="page">Webhooks<\/a>/, 'a section of the navigation')
    assert.doesNotMatch(list.body, /whsec_/, 'the secret is on no page')
    assert.deepEqual(rowCells(list.body, `data-webhook="${made.id}"`), {
      'Endereço': rec.url, Eventos: 'operacao.criada', 'Situação': 'Ativo', 'Entregas pendentes': '0', 'Ações': 'Enviar teste \nDesativar',
    })

    const tested = await web.done('/conta/webhooks', `teste-${made.id}`)
    assert.match(tested.body, /Evento de teste enviado/)
    await rec.count(2)
    assert.equal(JSON.parse(rec.got[1]!.body).tipo, 'webhook.teste')
    await until('delivered', async () => (/Entregue[\s\S]*Entregue/.test((await web.get(`/conta/webhooks/${made.id}`)).body) || undefined))

    const log = await web.get(`/conta/webhooks/${made.id}?estado=entregue`)
    const [first] = created(await call('GET', `/api/webhooks/${made.id}/entregas?tipo=operacao.criada`), 200).itens
    assert.deepEqual(rowCells(log.body, `data-entrega="${first.id}"`), {
      Evento: 'operacao.criada', 'Situação': 'Entregue', Tentativas: '1', 'Último status': '200', 'Último erro': '—',
      'Entregue em': rowCells(log.body, `data-entrega="${first.id}"`)['Entregue em']!, 'Próxima tentativa': '—', 'Ações': 'Reenviar',
    })
    const detail = await web.get(`/conta/webhooks/${made.id}?entrega=${first.id}`)
    assert.match(detail.body, /<pre id="entrega-corpo">\{&quot;id&quot;:&quot;/)
    assert.match(detail.body, /id="tentativas"/)

    const again = await web.done(`/conta/webhooks/${made.id}`, `reenvio-${first.id}`)
    assert.match(again.body, /Entrega reenviada/)
    await rec.count(3)
    assert.equal(rec.got[2]!.headers['webhook-id'], first.evento_id)

    const off = await web.done('/conta/webhooks', `ativo-${made.id}`)
    assert.match(off.body, /Webhook desativado/)
    assert.match(rowCells(off.body, `data-webhook="${made.id}"`)['Situação']!, /^Desativado em /)
    const on = await web.done('/conta/webhooks', `ativo-${made.id}`)
    assert.match(on.body, /Webhook reativado/)
    assert.equal(rowCells(on.body, `data-webhook="${made.id}"`)['Situação'], 'Ativo')

    // Someone who only reads sees the log, and no button.
    const reader = await colleagueWithPassword(ctx.db, admin.clienteId, 'consulta')
    const readOnly = await signIn(ctx.app, reader.email)
    const theirs = await readOnly.get(`/conta/webhooks/${made.id}`)
    assert.equal(theirs.statusCode, 200)
    assert.doesNotMatch(theirs.body, /Reenviar|Enviar teste|Desativar/)
  })
})
