// Personal access tokens: the secret returned once and stored as its SHA-256 only, the rules of issue, the
// listing without secrets, revocation for good, the lookup by secret, and the record of use.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CredentialInputError, InactiveCustomerError, UnknownCustomerError } from '../../../src/modules/credentials/errors.ts'
import { suspendCustomer } from '../../../src/modules/credentials/customers/store.ts'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { newToken, tokenHash, tokenKind } from '../../../src/modules/credentials/token-format.ts'
import {
  createToken, customerOfToken, findToken, listTokens, recordTokenUse, revokeToken, tokenRefusal, type NewToken,
} from '../../../src/modules/credentials/tokens/store.ts'
import { ipHash } from '../../../src/platform/lib/ip-hash.ts'
import type { Database } from '../../../src/platform/db/database.ts'
import { activeUser, auditRows, customer, operatorNow } from '../../helpers/credentials.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const DAY = 86_400_000
const JKT = 'A5eQ1ghtpsISb8r0bMo6cfrNe21Uf3M5txZp3bpqzhc'

function issue(db: Database, input: Partial<NewToken> & { clienteId: string }, now = new Date()) {
  return withTenant(db, input.clienteId, (tx) => createToken(tx, {
    usuarioId: null, nome: 'ERP', escopos: ['conta'], expiraEm: new Date(now.getTime() + 30 * DAY), ...input,
  }, operatorNow(now)))
}

describe('personal access tokens', () => {
  const tdb = useTestDatabase()
  const ownerRows = (text: string, params: unknown[]) => tdb.db.ownerTransaction((tx) => tx.query<Record<string, unknown>>(text, params))

  it('issue: the secret once (kind pat), only its SHA-256 stored, the creation audited without either', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const { token, info } = await issue(tdb.db, { clienteId, nome: 'Integração ERP', escopos: ['conta', 'tokens'], dpopJkt: JKT })
    assert.equal(tokenKind(token), 'pat')
    assert.deepEqual([info.clienteId, info.usuarioId, info.nome, info.escopos, info.dpopJkt, info.revogadoEm], [clienteId, null, 'Integração ERP',
      ['conta', 'tokens'], JKT, null])
    assert.ok(!('hash' in info))
    const [row] = await ownerRows('SELECT * FROM tokens WHERE id = $1', [info.id])
    assert.equal(row!.hash, tokenHash(token))
    assert.ok(!Object.values(row!).some((v) => String(v).includes(token)), 'the secret itself is nowhere in the row')
    const audit = await auditRows(tdb.db, clienteId)
    assert.deepEqual(audit.at(-1)!.acao, 'token.criado')
    assert.equal(audit.at(-1)!.alvo_id, info.id)
    const written = JSON.stringify(audit)
    assert.ok(!written.includes(token) && !written.includes(tokenHash(token)), 'no secret and no digest in the audit trail')
  })

  it('refuses a bad name, no or unknown scopes, an expiry past or beyond 366 days, a malformed thumbprint', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const now = new Date()
    for (const [input, message] of [
      [{ nome: ' ' }, /1 to 100 characters/], [{ nome: 'n'.repeat(101) }, /1 to 100 characters/],
      [{ escopos: [] }, /scopes/], [{ escopos: ['conta', 'admin'] }, /scopes/],
      [{ expiraEm: now }, /in the future/], [{ expiraEm: new Date(now.getTime() + 367 * DAY) }, /at most 366 days/],
      [{ dpopJkt: JKT.slice(1) }, /RFC 7638/], [{ dpopJkt: `${JKT.slice(0, 42)}B` }, /RFC 7638/],
    ] as const) {
      await assert.rejects(issue(tdb.db, { clienteId, ...input }, now), (err: Error) => err instanceof CredentialInputError && message.test(err.message))
    }
    assert.deepEqual(await withTenant(tdb.db, clienteId, (tx) => listTokens(tx, clienteId)), [])
  })

  it('refuses a suspended customer, an unknown one, and a maker who is not an active person of the customer', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const other = await customer(tdb.db)
    const outsider = await activeUser(tdb.db, other.id)
    await assert.rejects(issue(tdb.db, { clienteId, usuarioId: outsider.id }), /only an active user of the customer/)
    await withTenant(tdb.db, clienteId, (tx) => suspendCustomer(tx, clienteId, operatorNow()))
    await assert.rejects(issue(tdb.db, { clienteId }), InactiveCustomerError)
    await assert.rejects(issue(tdb.db, { clienteId: crypto.randomUUID() }), UnknownCustomerError)
  })

  it('lists the customer\'s tokens newest first, revoked ones too, never a secret or its digest', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const older = await issue(tdb.db, { clienteId, nome: 'antigo' }, new Date(Date.now() - DAY))
    const newer = await issue(tdb.db, { clienteId, nome: 'novo' })
    await withTenant(tdb.db, clienteId, (tx) => revokeToken(tx, { clienteId, tokenId: older.info.id }, operatorNow()))
    const list = await withTenant(tdb.db, clienteId, (tx) => listTokens(tx, clienteId))
    assert.deepEqual(list.map((t) => [t.nome, t.revogadoEm !== null]), [['novo', false], ['antigo', true]])
    assert.deepEqual(Object.keys(list[0]!).sort(), ['clienteId', 'criadoEm', 'dpopJkt', 'escopos', 'expiraEm', 'id', 'nome', 'primeiroUsoEm',
      'revogadoEm', 'ultimoUsoEm', 'ultimoUsoIp', 'usuarioId'])
    const shown = JSON.stringify(list)
    for (const secret of [older.token, newer.token]) assert.ok(!shown.includes(secret) && !shown.includes(tokenHash(secret)))
  })

  it('revokes once and for good: audited the first time; again is `already`; another customer\'s token is `not_found`', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const other = await customer(tdb.db)
    const { token, info } = await issue(tdb.db, { clienteId })
    const foreign = await issue(tdb.db, { clienteId: other.id })
    const revoke = (c: string, tokenId: string) => withTenant(tdb.db, c, (tx) => revokeToken(tx, { clienteId: c, tokenId }, operatorNow()))
    assert.equal(await revoke(clienteId, info.id), 'revoked')
    assert.equal(await revoke(clienteId, info.id), 'already')
    assert.equal(await revoke(clienteId, foreign.info.id), 'not_found')
    assert.equal(await revoke(clienteId, crypto.randomUUID()), 'not_found')
    assert.equal((await findToken(tdb.db.orm, foreign.token))?.revogadoEm, null, 'the other customer\'s token is untouched')
    assert.deepEqual((await auditRows(tdb.db, clienteId)).filter((r) => r.acao === 'token.revogado').map((r) => r.alvo_id), [info.id])
    const found = await findToken(tdb.db.orm, token)
    assert.equal(tokenRefusal(found!, new Date()), 'revogado')
  })

  it('finds a token by its secret alone; a mistyped, unknown or other kind of secret finds nothing', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const { token, info } = await issue(tdb.db, { clienteId, escopos: ['mcp'], dpopJkt: JKT })
    const found = await findToken(tdb.db.orm, token)
    assert.deepEqual(found, {
      id: info.id, clienteId, usuarioId: null, escopos: ['mcp'], expiraEm: info.expiraEm, revogadoEm: null, dpopJkt: JKT,
      clienteEstado: 'ativo', usuarioEstado: null, usuarioPapel: null, primeiroUsoEm: null, ultimoUsoEm: null, ultimoUsoIp: null,
    })
    assert.equal(tokenRefusal(found!, new Date()), undefined)
    const typo = `${token.slice(0, 20)}${token[20] === 'a' ? 'b' : 'a'}${token.slice(21)}`
    for (const other of [typo, newToken('pat'), newToken('sessao'), '', 'Bearer x']) assert.equal(await findToken(tdb.db.orm, other), undefined, other)
    assert.equal(await customerOfToken(tdb.db.orm, info.id), clienteId)
    assert.equal(await customerOfToken(tdb.db.orm, crypto.randomUUID()), undefined)
  })

  it('a found token is refused once expired, when its maker is no longer active, or while its customer is suspended', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const maker = await activeUser(tdb.db, clienteId)
    const { token } = await issue(tdb.db, { clienteId, usuarioId: maker.id })
    const found = (await findToken(tdb.db.orm, token))!
    assert.equal(found.usuarioEstado, 'ativo')
    assert.equal(tokenRefusal(found, new Date(found.expiraEm.getTime() + 1)), 'expirado')
    assert.equal(tokenRefusal({ ...found, usuarioEstado: 'suspenso' }, new Date()), 'usuario_inativo')
    await withTenant(tdb.db, clienteId, (tx) => suspendCustomer(tx, clienteId, operatorNow()))
    assert.equal(tokenRefusal((await findToken(tdb.db.orm, token))!, new Date()), 'cliente_suspenso')
  })

  it('records use: the first once (audited with the address as an HMAC), later ones at most a minute apart from one address', async () => {
    const { id: clienteId } = await customer(tdb.db)
    const { info } = await issue(tdb.db, { clienteId })
    const t0 = new Date(Date.now() + 1000)
    const use = (ip: string, at: Date) => withTenant(tdb.db, clienteId, (tx) => recordTokenUse(tx, { clienteId, tokenId: info.id, ip }, {
      actor: { tipo: 'token', id: info.id }, now: at, requestId: 'req-1', ip,
    }))
    const state = async () => (await ownerRows('SELECT primeiro_uso_em, ultimo_uso_em, host(ultimo_uso_ip) AS ip FROM tokens WHERE id = $1', [info.id]))[0]!
    assert.deepEqual(await use('203.0.113.7', t0), { first: true })
    assert.deepEqual(await state(), { primeiro_uso_em: t0, ultimo_uso_em: t0, ip: '203.0.113.7' })
    assert.deepEqual(await use('203.0.113.7', new Date(t0.getTime() + 30_000)), { first: false })
    assert.deepEqual(await state(), { primeiro_uso_em: t0, ultimo_uso_em: t0, ip: '203.0.113.7' }, 'same address within a minute: not rewritten')
    const t1 = new Date(t0.getTime() + 40_000)
    await use('2001:db8::1', t1)
    assert.deepEqual(await state(), { primeiro_uso_em: t0, ultimo_uso_em: t1, ip: '2001:db8::1' }, 'another address: written')
    const t2 = new Date(t1.getTime() + 61_000)
    await use('2001:db8::1', t2)
    assert.deepEqual((await state()).ultimo_uso_em, t2)

    const audit = (await auditRows(tdb.db, clienteId)).filter((r) => r.acao === 'token.primeiro_uso')
    const [{ sal_ip: salt }] = await ownerRows('SELECT sal_ip FROM instalacao', []) as [{ sal_ip: string }]
    assert.deepEqual(audit.map((r) => [r.ator_tipo, r.ator_id, r.alvo_id, r.request_id, r.ip_hash]),
      [['token', info.id, info.id, 'req-1', ipHash(salt, '203.0.113.7')]])
    assert.ok(!JSON.stringify(audit).includes('203.0.113.7'))
  })
})
