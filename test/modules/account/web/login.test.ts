// /conta/entrar and /conta/sair: a session per login (the old one ended), the same answer for a wrong password
// and an unknown e-mail, the budgets per address and per account, the audit trail, and the cookie's attributes
// in development and in production.
import assert from 'node:assert/strict'
import rateLimit from '@fastify/rate-limit'
import Fastify from 'fastify'
import { describe, it } from 'node:test'
import { suspendCustomer } from '../../../../src/modules/credentials/customers/store.ts'
import { withTenant } from '../../../../src/platform/tenancy/tenancy.ts'
import { tokenHash } from '../../../../src/modules/credentials/token-format.ts'
import { LOGIN_BUDGETS, makeLoginLimits } from '../../../../src/modules/account/web/login-limits.ts'
import { makePasswordHasher, PASSWORD_HASH_OPTIONS } from '../../../../src/modules/credentials/password.ts'
import { auditRows, operatorNow } from '../../../helpers/credentials.ts'
import { accountPage, csrfOf, login, PASSWORD, personWithPassword, postForm, sessionCookie } from '../../../helpers/account-web.ts'
import { testApp, useTestApp } from '../../../helpers/fixture.ts'
import { until } from '../../../helpers/wait.ts'

describe('/conta/entrar and /conta/sair', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  const sessionRows = (usuarioId: string) => ctx.db.ownerTransaction((tx) =>
    tx.query<{ hash: string, encerrada_em: Date | null }>('SELECT hash, encerrada_em FROM sessoes WHERE usuario_id = $1 ORDER BY criada_em', [usuarioId]))

  it('the login page: a form, private and uncached; with a live session it goes to /conta', async () => {
    const res = await ctx.app.inject({ url: '/conta/entrar', headers: { accept: 'text/html' } })
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /autocomplete="current-password"/)
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.match(res.body, /noindex/)
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.1')
    const again = await ctx.app.inject({ url: '/conta/entrar', headers: { cookie } })
    assert.equal(again.statusCode, 303)
    assert.equal(again.headers.location, '/conta')
  })

  it('a login makes a new session (HttpOnly, SameSite=Lax, no Secure in development) and ends the one the browser sent; audited', async () => {
    const p = await personWithPassword(ctx.db)
    const first = await postForm(ctx.app, '/conta/entrar', { email: p.email.toUpperCase(), senha: PASSWORD }, { remoteAddress: '198.51.100.2' })
    assert.equal(first.statusCode, 303)
    assert.equal(first.headers.location, '/conta')
    const setCookie = String(first.headers['set-cookie'])
    assert.match(setCookie, /^sessao=fct_ses_[0-9A-Za-z]+; Path=\/; HttpOnly; SameSite=Lax$/)
    const cookie1 = sessionCookie(first)!
    const second = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { cookie: cookie1, remoteAddress: '198.51.100.2' })
    const cookie2 = sessionCookie(second)!
    assert.notEqual(cookie2, cookie1, 'rotated')
    const rows = await sessionRows(p.usuarioId)
    assert.deepEqual(rows.map((r) => [r.hash, r.encerrada_em !== null]),
      [[tokenHash(cookie1.split('=')[1]!), true], [tokenHash(cookie2.split('=')[1]!), false]])
    assert.equal((await accountPage(ctx.app, cookie1)).statusCode, 303, 'the old cookie no longer works')
    assert.equal((await accountPage(ctx.app, cookie2)).statusCode, 200)
    const audit = await auditRows(ctx.db, p.clienteId)
    const logins = audit.filter((r) => r.acao === 'login.sucesso')
    assert.equal(logins.length, 2)
    assert.equal(logins[1]!.request_id, second.headers['x-request-id'])
    assert.ok(logins[1]!.ip_hash, 'an HMAC of the address')
    assert.ok(!JSON.stringify(audit).includes(PASSWORD) && !JSON.stringify(audit).includes(cookie2.split('=')[1]!))
    assert.ok(audit.some((r) => r.acao === 'sessao.encerrada'))
  })

  it('a wrong password and an unknown e-mail get the same answer (status, headers, page); only the known account\'s failure is audited', async () => {
    const p = await personWithPassword(ctx.db)
    const local = p.email.split('@')[0]!
    const unknownEmail = `${'z'.repeat(local.length)}@cliente.com.br`
    const wrong = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: 'senha errada qualquer' }, { remoteAddress: '198.51.100.3' })
    const unknown = await postForm(ctx.app, '/conta/entrar', { email: unknownEmail, senha: 'senha errada qualquer' }, { remoteAddress: '198.51.100.3' })
    assert.equal(wrong.statusCode, 422)
    assert.equal(unknown.statusCode, wrong.statusCode)
    const shape = (res: typeof wrong, email: string) => ({
      headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !['date', 'x-request-id', 'traceresponse', 'ratelimit-remaining'].includes(k))),
      body: res.body.replaceAll(email, 'EMAIL'),
    })
    assert.deepEqual(shape(unknown, unknownEmail), shape(wrong, p.email))
    assert.match(wrong.body, /E-mail ou senha incorretos/)
    assert.equal(wrong.headers['set-cookie'], undefined)
    const failure = await until('the failure audited', async () => (await auditRows(ctx.db, p.clienteId)).find((r) => r.acao === 'login.falha'))
    assert.deepEqual([failure.ator_tipo, failure.ator_id, failure.motivo, failure.request_id], ['usuario', p.usuarioId, 'senha', wrong.headers['x-request-id']])
  })

  it('an e-mail with a NUL (which PostgreSQL text cannot hold) is a wrong login like any other: 422, never a 500', async () => {
    const res = await postForm(ctx.app, '/conta/entrar', { email: 'ana\u0000@cliente.com.br', senha: 'x' }, { remoteAddress: '198.51.100.7' })
    assert.equal(res.statusCode, 422)
    assert.match(res.body, /E-mail ou senha incorretos/)
  })

  it('a password hashed with older parameters is hashed again at login, with the current ones', async () => {
    const p = await personWithPassword(ctx.db)
    const old = await makePasswordHasher({ ...PASSWORD_HASH_OPTIONS, memoryCost: 8192, timeCost: 3 }).hash(PASSWORD)
    const stored = async () => (await ctx.db.ownerTransaction((tx) =>
      tx.query<{ senha_hash: string }>('SELECT senha_hash FROM usuarios WHERE id = $1', [p.usuarioId])))[0]!.senha_hash
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE usuarios SET senha_hash = $1 WHERE id = $2', [old, p.usuarioId]))
    await login(ctx.app, p.email, PASSWORD, '198.51.100.6')
    const now = await stored()
    assert.notEqual(now, old)
    assert.match(now, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    assert.ok(await login(ctx.app, p.email, PASSWORD, '198.51.100.6'), 'the same password still logs in')
    assert.equal(await stored(), now, 'a current hash is left alone')
  })

  it('a suspended customer\'s person is told so, with the right password only; no session', async () => {
    const p = await personWithPassword(ctx.db)
    await withTenant(ctx.db, p.clienteId, (tx) => suspendCustomer(tx, p.clienteId, operatorNow()))
    const res = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { remoteAddress: '198.51.100.4' })
    assert.equal(res.statusCode, 403)
    assert.match(res.body, /assinatura desta conta está inativa/)
    assert.equal(res.headers['set-cookie'], undefined)
    assert.deepEqual(await sessionRows(p.usuarioId), [])
    const wrong = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: 'senha errada qualquer' }, { remoteAddress: '198.51.100.4' })
    assert.equal(wrong.statusCode, 422)
  })

  it(`per account and address: ${LOGIN_BUDGETS.porContaEEndereco.max} failures hold that address (429, right password too); the person gets in`, async () => {
    const p = await personWithPassword(ctx.db)
    const other = await personWithPassword(ctx.db)
    const attacker = '203.0.113.7'
    for (let i = 0; i < LOGIN_BUDGETS.porContaEEndereco.max; i++) {
      const res = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: `errada ${i}` }, { remoteAddress: attacker })
      assert.equal(res.statusCode, 422)
    }
    // The attacker is still held: whatever they try next, from there, is refused before the password is checked.
    for (const senha of ['errada de novo', PASSWORD]) {
      const held = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha }, { remoteAddress: attacker })
      assert.equal(held.statusCode, 429)
      assert.match(held.body, /Tentativas demais/)
      assert.ok(Number(held.headers['retry-after']) > 0)
      assert.equal(held.headers['set-cookie'], undefined)
    }
    // The person who knows the password is not locked out by what the attacker did: from their own address, in.
    assert.ok(await login(ctx.app, p.email, PASSWORD, '198.51.100.77'))
    assert.ok(await login(ctx.app, other.email, PASSWORD, attacker), 'another account from the same address goes on')
    // The same answer for an e-mail nobody has, once it has failed as often from one address.
    const nobody = 'ninguem.aqui@cliente.com.br'
    for (let i = 0; i < LOGIN_BUDGETS.porContaEEndereco.max; i++) {
      await postForm(ctx.app, '/conta/entrar', { email: nobody, senha: 'x' }, { remoteAddress: '203.0.114.1' })
    }
    assert.equal((await postForm(ctx.app, '/conta/entrar', { email: nobody, senha: 'x' }, { remoteAddress: '203.0.114.1' })).statusCode, 429)
  })

  it('per account and address, IPv6: the /64 is one address, so hopping inside it buys nothing; another /64 is not held', async () => {
    const p = await personWithPassword(ctx.db)
    for (let i = 1; i <= LOGIN_BUDGETS.porContaEEndereco.max; i++) {
      const res = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: `errada ${i}` }, { remoteAddress: `2001:db8:20:20::${i}` })
      assert.equal(res.statusCode, 422)
    }
    const hop = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { remoteAddress: '2001:db8:20:20:ffff::99' })
    assert.equal(hop.statusCode, 429)
    assert.ok(await login(ctx.app, p.email, PASSWORD, '2001:db8:20:21::1'))
  })

  it('successful logins spend no budget: an office behind one address logs in more times than the failures allowed (issue 31 item 15)', async () => {
    const ip = '192.0.2.90'
    const office = [await personWithPassword(ctx.db), await personWithPassword(ctx.db)]
    for (let i = 0; i <= LOGIN_BUDGETS.porIp.max; i++) assert.ok(await login(ctx.app, office[i % 2]!.email, PASSWORD, ip), `login ${i + 1}`)
    const wrong = await postForm(ctx.app, '/conta/entrar', { email: office[0]!.email, senha: 'errada' }, { remoteAddress: ip })
    assert.equal(wrong.statusCode, 422, 'a failure is still told as one, not held back')
  })

  it(`per address: ${LOGIN_BUDGETS.porIp.max} failures, then 429 whatever the account`, async () => {
    const p = await personWithPassword(ctx.db)
    const ip = '192.0.2.77'
    for (let i = 0; i < LOGIN_BUDGETS.porIp.max; i++) {
      const res = await postForm(ctx.app, '/conta/entrar', { email: `pessoa${i}@cliente.com.br`, senha: 'x' }, { remoteAddress: ip })
      assert.equal(res.statusCode, 422)
    }
    const res = await postForm(ctx.app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { remoteAddress: ip })
    assert.equal(res.statusCode, 429)
    assert.ok(Number(res.headers['retry-after']) > 0)
    assert.ok(await login(ctx.app, p.email, PASSWORD, '192.0.2.78'), 'another address is not held back')
  })

  it('/conta/sair with the CSRF token ends the session and drops the cookie; without it, or from another site, nothing ends', async () => {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.5')
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    for (const [fields, headers] of [[{}, {}], [{ csrf: 'x'.repeat(43) }, {}], [{ csrf }, { origin: 'https://atacante.example' }]] as const) {
      const res = await postForm(ctx.app, '/conta/sair', fields, { cookie, headers })
      assert.equal(res.statusCode, 403)
    }
    assert.equal((await accountPage(ctx.app, cookie)).statusCode, 200, 'still logged in')
    const out = await postForm(ctx.app, '/conta/sair', { csrf }, { cookie })
    assert.equal(out.statusCode, 303)
    assert.equal(out.headers.location, '/conta/entrar?aviso=saiu')
    assert.match(String(out.headers['set-cookie']), /^sessao=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/)
    assert.equal((await sessionRows(p.usuarioId))[0]!.encerrada_em !== null, true)
    assert.equal((await accountPage(ctx.app, cookie)).statusCode, 303)
    const page = await ctx.app.inject({ url: '/conta/entrar?aviso=saiu' })
    assert.match(page.body, /Você saiu da conta/)
  })
})

describe('the budget of every attempt per address, which bounds attempts sent at once', () => {
  it('counts each attempt on arrival, whatever its outcome: past it, 429 with the seconds to wait', async (t) => {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(rateLimit, { global: false })
    const limits = makeLoginLimits(app, { ...LOGIN_BUDGETS, tentativasPorIp: { max: 3, windowSeconds: 60 } })
    app.post('/entrar', async (req) => ({ wait: await limits.admit(req, 'pessoa@cliente.com.br') ?? null }))
    const waits: (number | null)[] = []
    for (let i = 0; i < 5; i++) waits.push((await app.inject({ method: 'POST', url: '/entrar', remoteAddress: '192.0.2.91' })).json().wait)
    assert.equal(waits.filter((w) => w === null).length, 3, `admitted: ${JSON.stringify(waits)}`)
    assert.deepEqual(waits.slice(0, 3), [null, null, null])
    for (const w of waits.slice(3)) assert.ok(w !== null && w > 0 && w <= 60, `wait ${w}`)
    assert.equal((await app.inject({ method: 'POST', url: '/entrar', remoteAddress: '192.0.2.92' })).json().wait, null, 'another address')
  })
})

describe('the session cookie in production', () => {
  it('is __Host-sessao, Secure, HttpOnly, SameSite=Lax, path / and no Domain', async (t) => {
    const app = await testApp(t, { env: { AMBIENTE: 'producao', MAIL_SANDBOX: 'on', PUBLIC_URL: 'https://www.fomento.example', MAIL_WORKER: 'off' } })
    const p = await personWithPassword(app.deps.db)
    const res = await postForm(app, '/conta/entrar', { email: p.email, senha: PASSWORD }, { headers: { origin: 'https://www.fomento.example' } })
    assert.equal(res.statusCode, 303)
    assert.match(String(res.headers['set-cookie']), /^__Host-sessao=fct_ses_[0-9A-Za-z]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/)
    const cookie = sessionCookie(res)!
    assert.equal((await accountPage(app, cookie)).statusCode, 200)
    assert.equal((await accountPage(app, cookie.replace('__Host-', ''))).statusCode, 303, 'the unprefixed name is not read in production')
  })
})
