// /conta: who is logged in and for which customer; tokens made (the secret shown once), listed and revoked;
// sessions listed and ended. Without a live session, the login page; every form needs this site's Origin and
// the session's CSRF token.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import { tokenHash } from '../../../../src/modules/credentials/token-format.ts'
import { CONTENT_SECURITY_POLICY } from '../../../../src/platform/http/security-headers.ts'
import { auditRows, operatorToken } from '../../../helpers/credentials.ts'
import { accountPage, csrfOf, login, PASSWORD, personWithPassword, postForm } from '../../../helpers/account-web.ts'
import { useTestApp } from '../../../helpers/fixture.ts'

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

describe('/conta', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' } })

  async function loggedIn() {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.20')
    const page = await accountPage(ctx.app, cookie)
    return { ...p, cookie, csrf: csrfOf(page.body), page }
  }
  const tokenRows = (clienteId: string) => ctx.db.ownerTransaction((tx) =>
    tx.query<{
      id: string, nome: string, hash: string, escopos: string[], dpop_jkt: string | null, usuario_id: string, revogado_em: Date | null, expira_em: Date,
    }>(
      'SELECT * FROM tokens WHERE cliente_id = $1 ORDER BY criado_em', [clienteId]))

  it('without a session, or with an expired, ended or forged one: the login page', async () => {
    const none = await ctx.app.inject({ url: '/conta' })
    assert.equal(none.statusCode, 303)
    assert.equal(none.headers.location, '/conta/entrar')
    const p = await loggedIn()
    await ctx.db.ownerTransaction((tx) => tx.query('UPDATE sessoes SET expira_ociosa_em = now() - interval \'1 second\' WHERE usuario_id = $1', [p.usuarioId]))
    assert.equal((await accountPage(ctx.app, p.cookie)).statusCode, 303, 'idle too long')
    const q = await loggedIn()
    // Past the absolute expiry (the idle one, never later than it, is past too).
    await ctx.db.ownerTransaction((tx) => tx.query(
      'UPDATE sessoes SET expira_em = now() - interval \'1 second\', expira_ociosa_em = now() - interval \'1 second\' WHERE usuario_id = $1', [q.usuarioId]))
    assert.equal((await accountPage(ctx.app, q.cookie)).statusCode, 303, 'past its absolute expiry')
    for (const cookie of ['sessao=', 'sessao=fct_ses_abc', `sessao=${q.cookie.split('=')[1]!.slice(0, -1)}x`]) {
      assert.equal((await accountPage(ctx.app, cookie)).statusCode, 303, cookie)
    }
    // A post with an expired session goes to the login page too, and changes nothing.
    const post = await postForm(ctx.app, '/conta/tokens', { csrf: q.csrf, nome: 'x', escopos: 'conta', validade_dias: '30' }, { cookie: q.cookie })
    assert.equal(post.statusCode, 303)
    assert.equal(post.headers.location, '/conta/entrar?aviso=sessao-expirada')
    assert.deepEqual(await tokenRows(q.clienteId), [])
  })

  it('shows the customer, the person, the tokens (operator\'s too) and the sessions; private, uncached, the site\'s CSP', async () => {
    const p = await loggedIn()
    await operatorToken(ctx.db, p.clienteId, 'ERP da empresa')
    const res = await accountPage(ctx.app, p.cookie)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.equal(res.headers['x-robots-tag'], 'noindex, nofollow')
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY)
    assert.match(res.body, /<meta name="robots" content="noindex, nofollow">/)
    assert.ok(!res.body.includes('rel="alternate"'), 'no Markdown twin')
    assert.ok(res.body.includes(p.email) && res.body.includes('Ana Souza'))
    assert.match(res.body, /<tr data-token="[^"]+"><th scope="row">ERP da empresa<\/th><td data-rotulo="Escopos">conta<\/td>/)
    assert.match(res.body, /nunca usado/)
    assert.match(res.body, /<caption>As suas sessões \(1\)<\/caption>/)
    assert.match(res.body, /esta sessão/)
    const sitemap = await ctx.app.inject({ url: '/sitemap.xml' })
    assert.doesNotMatch(sitemap.body, /\/conta[/<]/, 'not in the sitemap')
  })

  it('makes a token: the secret on that answer only, its digest stored, bound to the DPoP key given; audited as the person', async () => {
    const p = await loggedIn()
    const fields = { csrf: p.csrf, nome: 'Integração ERP', escopos: ['conta', 'tokens'], validade_dias: '30', dpop_jkt: JKT }
    const res = await postForm(ctx.app, '/conta/tokens', fields, { cookie: p.cookie })
    assert.equal(res.statusCode, 201)
    assert.equal(res.headers['cache-control'], 'no-store')
    const secret = /<code id="token-novo">(fct_pat_[0-9A-Za-z]+)<\/code>/.exec(res.body)?.[1]
    assert.ok(secret, 'the secret is shown')
    assert.match(res.body, /data-copiar="token-novo" hidden/, 'the copy button waits for JavaScript')
    const [row] = await tokenRows(p.clienteId)
    assert.deepEqual([row!.nome, row!.escopos, row!.dpop_jkt, row!.usuario_id, row!.hash],
      ['Integração ERP', ['conta', 'tokens'], JKT, p.usuarioId, tokenHash(secret)])
    const days = (row!.expira_em.getTime() - Date.now()) / 86_400_000
    assert.ok(days > 29.9 && days <= 30, `${days} days`)
    const later = await accountPage(ctx.app, p.cookie)
    assert.ok(!later.body.includes(secret), 'never shown again')
    assert.match(later.body, /Integração ERP<\/th><td data-rotulo="Escopos">conta, tokens<\/td>.*<td data-rotulo="Vinculado \(DPoP\)">sim<\/td>/)
    const audit = (await auditRows(ctx.db, p.clienteId)).find((r) => r.acao === 'token.criado')!
    assert.deepEqual([audit.ator_tipo, audit.ator_id, audit.alvo_id], ['usuario', p.usuarioId, row!.id])
  })

  it('a token form with mistakes: each in words beside its field (422), nothing made', async () => {
    const p = await loggedIn()
    const wrong = { csrf: p.csrf, nome: '  ', validade_dias: '9999', dpop_jkt: 'nao-e-uma-impressao' }
    const res = await postForm(ctx.app, '/conta/tokens', wrong, { cookie: p.cookie })
    assert.equal(res.statusCode, 422)
    for (const m of [/Dê um nome ao token/, /Escolha pelo menos um escopo/, /Escolha uma das validades/, /impressão digital RFC 7638/]) assert.match(res.body, m)
    assert.match(res.body, /value="nao-e-uma-impressao"/, 'what was typed is kept')
    const unknownScope = await postForm(ctx.app, '/conta/tokens', { csrf: p.csrf, nome: 'x', escopos: 'admin', validade_dias: '30' }, { cookie: p.cookie })
    assert.equal(unknownScope.statusCode, 422)
    assert.deepEqual(await tokenRows(p.clienteId), [])
  })

  it('every form refuses a missing or wrong CSRF token, another session\'s, and another site\'s post: 403, nothing changes', async () => {
    const p = await loggedIn()
    const other = await loggedIn()
    const { id: tokenId } = await operatorToken(ctx.db, p.clienteId)
    const posts: [string, Record<string, string>][] = [
      ['/conta/tokens', { nome: 'x', escopos: 'conta', validade_dias: '30' }],
      ['/conta/tokens/revogar', { token_id: tokenId }],
      ['/conta/sessoes/encerrar-todas', {}],
    ]
    for (const [url, fields] of posts) {
      for (const [csrf, headers] of [[undefined, {}], ['', {}], ['A'.repeat(43), {}], [other.csrf, {}], [p.csrf, { origin: 'https://atacante.example' }], [p.csrf, { origin: '' }]] as const) {
        const res = await postForm(ctx.app, url, csrf === undefined ? fields : { ...fields, csrf }, { cookie: p.cookie, headers })
        assert.equal(res.statusCode, 403, `${url} ${String(csrf)} ${JSON.stringify(headers)}`)
        assert.match(res.body, /Envio recusado/)
      }
    }
    assert.equal((await tokenRows(p.clienteId)).filter((t) => t.revogado_em === null).length, 1)
    assert.equal((await accountPage(ctx.app, p.cookie)).statusCode, 200, 'the session is still live')
  })

  it('revokes a token of the customer; another customer\'s id is not found; audited', async () => {
    const p = await loggedIn()
    const other = await loggedIn()
    const { id: mine } = await operatorToken(ctx.db, p.clienteId)
    const { id: theirs } = await operatorToken(ctx.db, other.clienteId)
    const res = await postForm(ctx.app, '/conta/tokens/revogar', { csrf: p.csrf, token_id: mine }, { cookie: p.cookie })
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, '/conta/pessoas?aviso=token-revogado')
    assert.match((await ctx.app.inject({ url: res.headers.location, headers: { cookie: p.cookie } })).body, /O token foi revogado/)
    assert.notEqual((await tokenRows(p.clienteId))[0]!.revogado_em, null)
    const cross = await postForm(ctx.app, '/conta/tokens/revogar', { csrf: p.csrf, token_id: theirs }, { cookie: p.cookie })
    assert.equal(cross.statusCode, 404)
    assert.equal((await tokenRows(other.clienteId))[0]!.revogado_em, null)
    assert.equal((await postForm(ctx.app, '/conta/tokens/revogar', { csrf: p.csrf, token_id: 'nao-uuid' }, { cookie: p.cookie })).statusCode, 404)
    const audit = (await auditRows(ctx.db, p.clienteId)).find((r) => r.acao === 'token.revogado')!
    assert.deepEqual([audit.ator_tipo, audit.ator_id, audit.alvo_id], ['usuario', p.usuarioId, mine])
  })

  it('ends one other session, then all of them ("sair de todos os dispositivos"), each audited; another person\'s session is not theirs to end', async () => {
    const p = await loggedIn()
    const phone = await login(ctx.app, p.email, PASSWORD, '198.51.100.21')
    const laptop = await login(ctx.app, p.email, PASSWORD, '198.51.100.22')
    const sessions = await ctx.db.ownerTransaction((tx) =>
      tx.query<{ id: string, hash: string }>('SELECT id, hash FROM sessoes WHERE usuario_id = $1', [p.usuarioId]))
    const idOf = (cookie: string) => sessions.find((s) => s.hash === tokenHash(cookie.split('=')[1]!))!.id
    const page = await accountPage(ctx.app, p.cookie)
    assert.match(page.body, /<caption>As suas sessões \(3\)<\/caption>/)

    const someoneElse = await loggedIn()
    const foreign = await postForm(ctx.app, '/conta/sessoes/encerrar', { csrf: p.csrf, sessao_id: randomUUID() }, { cookie: p.cookie })
    assert.equal(foreign.statusCode, 404)
    const notMine = await postForm(ctx.app, '/conta/sessoes/encerrar', { csrf: someoneElse.csrf, sessao_id: idOf(phone) }, { cookie: someoneElse.cookie })
    assert.equal(notMine.statusCode, 404)
    assert.equal((await accountPage(ctx.app, phone)).statusCode, 200)

    const one = await postForm(ctx.app, '/conta/sessoes/encerrar', { csrf: p.csrf, sessao_id: idOf(phone) }, { cookie: p.cookie })
    assert.equal(one.statusCode, 303)
    assert.equal(one.headers.location, '/conta/pessoas?aviso=sessao-encerrada')
    assert.equal((await accountPage(ctx.app, phone)).statusCode, 303)
    assert.equal((await accountPage(ctx.app, laptop)).statusCode, 200)

    const all = await postForm(ctx.app, '/conta/sessoes/encerrar-todas', { csrf: p.csrf }, { cookie: p.cookie })
    assert.equal(all.statusCode, 303)
    assert.equal(all.headers.location, '/conta/entrar?aviso=saiu-de-todos')
    assert.match(String(all.headers['set-cookie']), /Max-Age=0/)
    for (const cookie of [p.cookie, laptop]) assert.equal((await accountPage(ctx.app, cookie)).statusCode, 303)
    const live = await ctx.db.ownerTransaction((tx) => tx.query('SELECT id FROM sessoes WHERE usuario_id = $1 AND encerrada_em IS NULL', [p.usuarioId]))
    assert.deepEqual(live, [])
    const ended = (await auditRows(ctx.db, p.clienteId)).filter((r) => r.acao === 'sessao.encerrada')
    assert.equal(ended.length, 3)
    assert.ok(ended.every((r) => r.ator_id === p.usuarioId))
  })
})
