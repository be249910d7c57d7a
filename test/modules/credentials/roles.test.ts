// A person's role decides what their session and the tokens they made may do, read at each request: consulta and
// aprovador only read an area's routes (a route that changes nothing may say so), only an administrador manages
// tokens and people, a token never gets a scope its maker's role cannot use, a role taken away takes effect at
// once, and a customer always keeps one active administrador.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { MODULES } from '../../../src/modules-list.ts'
import type { AppModule } from '../../../src/platform/module.ts'
import { createToken } from '../../../src/modules/credentials/tokens/store.ts'
import { setRole } from '../../../src/modules/credentials/users/role.ts'
import type { Papel } from '../../../src/modules/credentials/roles.ts'
import type { Scope } from '../../../src/modules/credentials/scopes.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import { accountPage, csrfOf, login, personWithPassword, postForm, SITE_ORIGIN, type Invited } from '../../helpers/account-web.ts'
import { bearer, issueToken } from '../../helpers/api-credentials.ts'
import { activeUser, auditRows, operatorNow, rowsAs } from '../../helpers/credentials.ts'
import { cliRunner } from '../../helpers/cli.ts'
import { until } from '../../helpers/wait.ts'
import { useTestApp } from '../../helpers/fixture.ts'
import { PROTOCOL_VERSION, resultJson, toolCall } from '../mcp/helpers.ts'

/** An area's routes as a product module declares them: a read, a change, and a POST that changes nothing. */
const probe: AppModule = {
  name: 'test-area',
  setup: () => ({
    async routes(app) {
      const credencial = { escopo: 'cadastro' }
      app.get('/api/teste-area', { config: { credencial } }, async () => ({ ok: 'leu' }))
      app.post('/api/teste-area', { config: { credencial } }, async () => ({ ok: 'mudou' }))
      app.post('/api/teste-area/simulacao', { config: { credencial: { ...credencial, somenteLeitura: true } } }, async () => ({ ok: 'simulou' }))
    },
  }),
}

const role = (db: Database, p: Pick<Invited, 'clienteId' | 'usuarioId'>, papel: Papel) =>
  withTenant(db, p.clienteId, (tx) => setRole(tx, { clienteId: p.clienteId, usuarioId: p.usuarioId }, papel, operatorNow()))

/** A person who activated, with another administrador beside them: their own role may then change freely. */
const personAmongAdmins = async (db: Database) => {
  const p = await personWithPassword(db)
  await activeUser(db, p.clienteId)
  return p
}

/** A token made by the person (as the web app makes it), with these scopes. */
const personToken = async (db: Database, p: Pick<Invited, 'clienteId' | 'usuarioId'>, escopos: Scope[]) =>
  (await withTenant(db, p.clienteId, (tx) => createToken(tx, {
    clienteId: p.clienteId, usuarioId: p.usuarioId, nome: 'da pessoa', escopos, expiraEm: new Date(Date.now() + 86_400_000), dpopJkt: null,
  }, { actor: { tipo: 'usuario', id: p.usuarioId }, now: new Date() }))).token

describe('roles', () => {
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off', PUBLIC_URL: SITE_ORIGIN }, deps: { modules: [...MODULES, probe] } })

  it('consulta reads an area and is refused its changes (papel_insuficiente), except a route that changes nothing', async () => {
    const p = await personAmongAdmins(ctx.db)
    const token = await personToken(ctx.db, p, ['cadastro'])
    await role(ctx.db, p, 'consulta')
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/teste-area')).statusCode, 200)
    const refused = await bearer(ctx.app, token, 'POST', '/api/teste-area', { payload: {} })
    assert.equal(refused.statusCode, 403)
    assert.equal(refused.json().detail, 'papel_insuficiente')
    assert.equal((await bearer(ctx.app, token, 'POST', '/api/teste-area/simulacao', { payload: {} })).statusCode, 200)
    // The same person as operador changes the area; the change of role is read at the next request.
    await role(ctx.db, p, 'operador')
    assert.equal((await bearer(ctx.app, token, 'POST', '/api/teste-area', { payload: {} })).json().ok, 'mudou')
  })

  it('a session is held to the role the same way; a token the operator made, to its scopes alone', async () => {
    const p = await personAmongAdmins(ctx.db)
    await role(ctx.db, p, 'aprovador')
    const cookie = await login(ctx.app, p.email)
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const headers = { cookie, 'x-csrf-token': csrf, origin: SITE_ORIGIN }
    assert.equal((await ctx.app.inject({ method: 'GET', url: '/api/teste-area', headers: { cookie } })).statusCode, 200)
    const refused = await ctx.app.inject({ method: 'POST', url: '/api/teste-area', headers, payload: {} })
    assert.equal(refused.statusCode, 403)
    assert.equal(refused.json().detail, 'papel_insuficiente')
    const operator = await issueToken(ctx.db, p.clienteId, { escopos: ['cadastro'] })
    assert.equal((await bearer(ctx.app, operator.token, 'POST', '/api/teste-area', { payload: {} })).statusCode, 200)
  })

  it('a token gets no scope its maker\'s role cannot use', async () => {
    const p = await personAmongAdmins(ctx.db)
    await role(ctx.db, p, 'consulta')
    await assert.rejects(personToken(ctx.db, p, ['conta', 'tokens']), (err: Error & { code?: string }) =>
      err.code === 'papel_insuficiente' && /consulta cannot give a token the scope tokens/.test(err.message))
    // Reading scopes are the role's to give.
    assert.ok(await personToken(ctx.db, p, ['conta', 'cadastro', 'operacoes', 'financeiro']))
  })

  it('the company\'s tokens are an administrador\'s: a demoted maker\'s `tokens` token is refused within a second, and works again when promoted', async () => {
    const p = await personWithPassword(ctx.db)
    const token = await personToken(ctx.db, p, ['conta', 'tokens'])
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta/tokens')).statusCode, 200)
    await activeUser(ctx.db, p.clienteId) // another administrador, so this one may be demoted
    // Changed outside this instance's requests: the kept lookup (lookup-cache.ts) gives way within a second.
    await role(ctx.db, p, 'operador')
    const refused = await until('the demotion to take effect', async () => {
      const res = await bearer(ctx.app, token, 'GET', '/api/conta/tokens')
      return res.statusCode === 403 ? res : undefined
    }, 1000)
    assert.equal(refused.json().detail, 'papel_insuficiente')
    assert.equal((await bearer(ctx.app, token, 'GET', '/api/conta')).statusCode, 200)
    await role(ctx.db, p, 'administrador')
    await until('the promotion to take effect', async () => (await bearer(ctx.app, token, 'GET', '/api/conta/tokens')).statusCode === 200, 1000)
  })

  it('an MCP tool is held to its twin\'s role as the twin is', async () => {
    const p = await personWithPassword(ctx.db)
    const token = await personToken(ctx.db, p, ['mcp', 'tokens'])
    await activeUser(ctx.db, p.clienteId)
    await role(ctx.db, p, 'operador')
    const res = await ctx.app.inject({
      method: 'POST', url: '/api/mcp', payload: toolCall(1, 'listar_tokens'),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION },
    })
    const result = res.json().result as { isError?: boolean, content?: unknown }
    assert.equal(result.isError, true)
    assert.equal(resultJson(result).detail, 'papel_insuficiente')
  })

  it('at /conta an administrador changes a person\'s role (audited); anyone else gets no form and a 403', async () => {
    const admin = await personWithPassword(ctx.db)
    const other = await activeUser(ctx.db, admin.clienteId)
    const cookie = await login(ctx.app, admin.email)
    const page = (await accountPage(ctx.app, cookie)).body
    assert.match(page, new RegExp(`<select id="papel-${other.id}" name="papel">`))
    const changed = await postForm(ctx.app, '/conta/pessoas/papel', { csrf: csrfOf(page), usuario_id: other.id, papel: 'consulta' }, { cookie })
    assert.equal(changed.statusCode, 303)
    assert.equal(changed.headers.location, '/conta/pessoas?aviso=papel-alterado')
    const [row] = await rowsAs<{ papel: string }>(ctx.db, admin.clienteId, `SELECT papel FROM usuarios WHERE id = '${other.id}'`)
    assert.equal(row!.papel, 'consulta')
    const audit = (await auditRows(ctx.db, admin.clienteId)).filter((r) => r.acao === 'usuario.papel_alterado')
    assert.deepEqual(audit.map((r) => [r.ator_tipo, r.ator_id, r.alvo_id]), [['usuario', admin.usuarioId, other.id]])

    // Demoted (another administrador made first), the same session sees no form and is refused the change.
    await activeUser(ctx.db, admin.clienteId)
    await role(ctx.db, admin, 'operador')
    const operatorPage = (await accountPage(ctx.app, cookie)).body
    assert.doesNotMatch(operatorPage, /name="papel"/)
    const refused = await postForm(ctx.app, '/conta/pessoas/papel', { csrf: csrfOf(operatorPage), usuario_id: other.id, papel: 'administrador' }, { cookie })
    assert.equal(refused.statusCode, 403)
    const [still] = await rowsAs<{ papel: string }>(ctx.db, admin.clienteId, `SELECT papel FROM usuarios WHERE id = '${other.id}'`)
    assert.equal(still!.papel, 'consulta')
  })

  it('at /conta someone who is not an administrador is offered only their role\'s scopes, sees and revokes only their own tokens', async () => {
    const p = await personAmongAdmins(ctx.db)
    const own = await personToken(ctx.db, p, ['conta'])
    const theirs = await issueToken(ctx.db, p.clienteId, { escopos: ['conta'], nome: 'do operador' })
    await role(ctx.db, p, 'consulta')
    const cookie = await login(ctx.app, p.email)
    const page = (await accountPage(ctx.app, cookie)).body
    const offered = [...page.matchAll(/name="escopos" value="([a-z]+)"/g)].map((m) => m[1]).sort()
    assert.deepEqual(offered, ['aprovacao', 'cadastro', 'cobranca', 'conta', 'financeiro', 'mcp', 'operacoes', 'webhooks'])
    assert.doesNotMatch(page, new RegExp(theirs.id), 'the company\'s other tokens are not listed')
    assert.match(page, /da pessoa/)
    const refused = await postForm(ctx.app, '/conta/tokens/revogar', { csrf: csrfOf(page), token_id: theirs.id }, { cookie })
    assert.equal(refused.statusCode, 404)
    assert.equal((await bearer(ctx.app, theirs.token, 'GET', '/api/conta')).statusCode, 200, 'still alive')
    const [mine] = await rowsAs<{ id: string }>(ctx.db, p.clienteId, `SELECT id FROM tokens WHERE nome = 'da pessoa' AND usuario_id = '${p.usuarioId}'`)
    assert.equal((await postForm(ctx.app, '/conta/tokens/revogar', { csrf: csrfOf(page), token_id: mine!.id }, { cookie })).statusCode, 303)
    assert.equal((await bearer(ctx.app, own, 'GET', '/api/conta')).statusCode, 401, 'revoked')
  })

  it('the last active administrador keeps the role (409 ultimo_administrador); two demotions at once leave one', async () => {
    const a = await personWithPassword(ctx.db)
    await assert.rejects(role(ctx.db, a, 'consulta'), (err: Error & { code?: string }) => err.code === 'ultimo_administrador')
    const cookie = await login(ctx.app, a.email)
    const csrf = csrfOf((await accountPage(ctx.app, cookie)).body)
    const refused = await postForm(ctx.app, '/conta/pessoas/papel', { csrf, usuario_id: a.usuarioId, papel: 'consulta' }, { cookie })
    assert.equal(refused.statusCode, 409)
    const b = await activeUser(ctx.db, a.clienteId)
    const outcomes = await Promise.allSettled([role(ctx.db, a, 'operador'), role(ctx.db, { clienteId: a.clienteId, usuarioId: b.id }, 'operador')])
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'])
    const admins = await rowsAs(ctx.db, a.clienteId, "SELECT id FROM usuarios WHERE papel = 'administrador' AND estado = 'ativo'")
    assert.equal(admins.length, 1)
  })

  it('the operator gives roles by CLI: usuarios papel, usuarios convidar --papel, and usuarios listar shows them', async () => {
    const { lines, cli } = cliRunner(() => ctx.db)
    const a = await personWithPassword(ctx.db)
    const b = await activeUser(ctx.db, a.clienteId)
    assert.equal(await cli('usuarios', 'papel', b.id, '--cliente', a.clienteId, '--papel', 'aprovador'), 0)
    assert.match(lines.join('\n'), /is now aprovador/)
    assert.equal(await cli('usuarios', 'papel', b.id, '--cliente', a.clienteId, '--papel', 'chefe'), 2)
    assert.match(lines.join('\n'), /--papel must be one of administrador, operador, aprovador, consulta, not "chefe"/)
    const invite = ['usuarios', 'convidar', '--cliente', a.clienteId, '--email', 'nova@cliente.com.br', '--nome', 'Nova']
    assert.equal(await cli(...invite, '--papel', 'consulta', '--json'), 0)
    const invited = JSON.parse(lines[0]!) as { id: string }
    assert.equal(await cli('usuarios', 'listar', '--cliente', a.clienteId, '--json'), 0)
    const people = JSON.parse(lines[0]!) as { id: string, papel: string }[]
    assert.equal(people.find((x) => x.id === b.id)?.papel, 'aprovador')
    assert.equal(people.find((x) => x.id === invited.id)?.papel, 'consulta')
    assert.equal(people.find((x) => x.id === a.usuarioId)?.papel, 'administrador')
  })

  it('the database refuses a role it does not know', async () => {
    const a = await personWithPassword(ctx.db)
    await assert.rejects(withTenant(ctx.db, a.clienteId, (tx) => tx.execute(sql`UPDATE usuarios SET papel = 'dono' WHERE id = ${a.usuarioId}`)),
      (err: Error & { cause?: { code?: string } }) => err.cause?.code === '23514')
  })
})
