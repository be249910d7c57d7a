// A client's X-Request-ID is its claim, not the service's record: the answer echoes it (the contract), but an audit
// row keeps an id the service made (`request_id`) and the client's beside it (`request_id_cliente`), so a client
// cannot make its actions pass for another request's; the access log line of the request names both.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { login, personWithPassword, postForm } from '../../helpers/account-web.ts'
import { API_ENV, bearer, issueToken } from '../../helpers/api-credentials.ts'
import { auditRows, customer } from '../../helpers/credentials.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { until } from '../../helpers/wait.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('X-Request-ID in the audit trail', () => {
  const logs: Record<string, unknown>[] = []
  const ctx = useTestApp({ env: API_ENV, logs })

  it('a client\'s id is echoed, and kept beside the service\'s own id in the audit row and the access log', async () => {
    const c = await customer(ctx.db)
    const first = await issueToken(ctx.db, c.id)
    const second = await issueToken(ctx.db, c.id)
    // The same id for two requests, as a client that wants its action to pass for another would send it.
    const forged = 'req-de-outra-pessoa'
    for (const t of [first, second]) {
      const res = await bearer(ctx.app, t.token, 'GET', '/api/conta', { headers: { 'x-request-id': forged } })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-request-id'], forged, 'the answer echoes it, as the contract says')
    }
    const rows = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.primeiro_uso')
    assert.equal(rows.length, 2)
    for (const row of rows) {
      assert.match(String(row.request_id), UUID, 'the service\'s own id')
      assert.equal(row.request_id_cliente, forged)
    }
    assert.notEqual(rows[0]!.request_id, rows[1]!.request_id, 'each request its own')

    const lines = await until('the access log lines', () => {
      const found = logs.filter((l) => l.msg === 'request' && l.reqId === forged)
      return found.length === 2 ? found : undefined
    })
    assert.deepEqual(lines.map((l) => l.requestIdServico).sort(), rows.map((r) => r.request_id).sort(), 'the log line names the audit row\'s id')

    const trail = await bearer(ctx.app, first.token, 'GET', '/api/conta/auditoria')
    const item = (trail.json().itens as Record<string, unknown>[]).find((i) => i.request_id === rows[0]!.request_id)
    assert.equal(item?.request_id_cliente, forged, 'the trail shows both')
  })

  it('without a client\'s id, the row\'s request_id is the one the answer carries, and request_id_cliente is null', async () => {
    const c = await customer(ctx.db)
    const t = await issueToken(ctx.db, c.id)
    const res = await bearer(ctx.app, t.token, 'GET', '/api/conta')
    const [row] = (await auditRows(ctx.db, c.id)).filter((r) => r.acao === 'token.primeiro_uso')
    assert.equal(row!.request_id, res.headers['x-request-id'])
    assert.equal(row!.request_id_cliente, null)
    const line = await until('the access log line', () => logs.find((l) => l.msg === 'request' && l.reqId === res.headers['x-request-id']))
    assert.equal(line.requestIdServico, undefined)
  })
})

describe('X-Request-ID in the audit trail of the web app', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  it('a login over a live session ends it under the service\'s own id, the client\'s kept beside it', async () => {
    const person = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, person.email)
    const forged = 'req-de-outra-pessoa'
    const again = await postForm(ctx.app, '/conta/entrar', { email: person.email, senha: 'cavalo correto bateria grampo' },
      { cookie, headers: { 'x-request-id': forged } })
    assert.equal(again.statusCode, 303)
    const ended = (await auditRows(ctx.db, person.clienteId)).filter((r) => r.acao === 'sessao.encerrada')
    assert.equal(ended.length, 1)
    assert.match(String(ended[0]!.request_id), UUID)
    assert.equal(ended[0]!.request_id_cliente, forged)
  })
})
