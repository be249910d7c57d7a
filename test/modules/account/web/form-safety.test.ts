// /conta's token form against what an attacker types (issue 20): a refused post logs nothing at error level; a
// name with terminal escapes, line breaks or bidi controls is refused in words (422), never stored; the length is
// counted in characters as PostgreSQL counts them, so a name of emoji is accepted or refused alike by the form and
// the store, never a 500.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { accountPage, csrfOf, login, PASSWORD, personWithPassword, postForm } from '../../../helpers/account-web.ts'
import { useTestApp } from '../../../helpers/fixture.ts'

describe('/conta forms against hostile input', () => {
  const logs: Array<{ level?: number, msg?: string }> = []
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, logs, logLevel: 'warn' })

  async function loggedIn() {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.40')
    return { ...p, cookie, csrf: csrfOf((await accountPage(ctx.app, cookie)).body) }
  }
  const tokenNames = (clienteId: string) => ctx.db.ownerTransaction(async (tx) =>
    (await tx.query<{ nome: string }>('SELECT nome FROM tokens WHERE cliente_id = $1 ORDER BY criado_em', [clienteId])).map((r) => r.nome))
  const errorsLogged = () => logs.filter((l) => (l.level ?? 0) >= 50)

  it('a post without the CSRF token answers 403 on every form and logs nothing at error level', async () => {
    const p = await loggedIn()
    logs.length = 0
    for (const path of ['/conta/tokens', '/conta/tokens/revogar', '/conta/sessoes/encerrar', '/conta/sessoes/encerrar-todas']) {
      const res = await postForm(ctx.app, path, { nome: 'x', escopos: 'conta', validade_dias: '30' }, { cookie: p.cookie })
      assert.equal(res.statusCode, 403, path)
      assert.match(res.body, /<html/i, path)
    }
    // Without a session: the login page, as before, and nothing logged either.
    const anonymous = await postForm(ctx.app, '/conta/tokens', { nome: 'x' })
    assert.equal(anonymous.statusCode, 303)
    assert.deepEqual(errorsLogged(), [])
  })

  it('a token name with terminal escapes, OSC 52, line breaks, tabs or bidi controls is refused in words (422); nothing stored', async () => {
    const p = await loggedIn()
    const hostile = [
      'ERP \x1b[31mvermelho\x1b[0m', 'x\x1b]52;c;ZWNobyBoaQ==\x07', 'linha\nforjada', 'a\tb\tc', 'retorno\rde carro',
      'c1 \u009b31m', 'bidi \u202egpj.exe', 'isolado \u2066x\u2069', 'marca \u200f', 'separador\u2028linha', 'nulo\u0000',
    ]
    for (const nome of hostile) {
      const res = await postForm(ctx.app, '/conta/tokens', { csrf: p.csrf, nome, escopos: 'conta', validade_dias: '30' }, { cookie: p.cookie })
      assert.equal(res.statusCode, 422, JSON.stringify(nome))
      assert.match(res.body, /caracteres de controle/, JSON.stringify(nome))
      assert.ok(!res.body.includes('\x1b'), 'the escape is not echoed back raw')
    }
    assert.deepEqual(await tokenNames(p.clienteId), [])
  })

  it('the length is counted in characters (code points), as PostgreSQL counts: 100 emoji are made, 101 refused (422), never a 500', async () => {
    const p = await loggedIn()
    const post = (nome: string) => postForm(ctx.app, '/conta/tokens', { csrf: p.csrf, nome, escopos: 'conta', validade_dias: '30' }, { cookie: p.cookie })
    logs.length = 0
    const sixty = '😀'.repeat(60)
    assert.equal((await post(sixty)).statusCode, 201)
    const limit = '🧾'.repeat(100)
    assert.equal((await post(limit)).statusCode, 201)
    const over = await post('🧾'.repeat(101))
    assert.equal(over.statusCode, 422)
    assert.match(over.body, /no máximo 100 caracteres/)
    assert.deepEqual(await tokenNames(p.clienteId), [sixty, limit])
    assert.deepEqual(errorsLogged(), [])
  })
})
