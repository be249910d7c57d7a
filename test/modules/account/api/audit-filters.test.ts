// GET /api/conta/auditoria with names and filters (issue 32, item 8): who acted by name (a person's, a token's),
// what was acted on by name, and filters by who (ator_id), what (acao), on what (alvo_id) and when (de/ate, days in
// Brasília), each in SQL; another customer's rows never, whatever is asked.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { colleagueWithPassword } from '../../../helpers/account-web.ts'
import { useTestApp } from '../../../helpers/fixture.ts'
import { backOffice, created, EXAMPLE_NOW, formalizedExample, settableClock, type Caller } from '../../operations/helpers.ts'
import { signIn } from '../../backoffice/steps.ts'

type Row = { id: number, em: string, ator_tipo: string, ator_id: string | null, ator_nome: string | null, acao: string, alvo_id: string | null,
  alvo_nome: string | null, alvo_operacao_id: string | null, alteracoes: Record<string, { antes: unknown, depois: unknown }> | null }

const trail = async (call: Caller, query = ''): Promise<Row[]> => created(await call('GET', `/api/conta/auditoria?limite=200${query}`), 200).itens

describe('the audit trail by name, filtered', () => {
  const clock = settableClock(EXAMPLE_NOW)
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('names who and what, and filters by each of who, what, on what and when, the customer\'s own rows only', async () => {
    clock.set(EXAMPLE_NOW)
    const mine = await backOffice(ctx.db, ctx.app, clock)
    const theirs = await backOffice(ctx.db, ctx.app, clock)
    const { op, cedente } = await formalizedExample(mine.operador.call)
    const other = await formalizedExample(theirs.operador.call)
    created(await mine.operador.call('PATCH' as 'POST', `/api/cedentes/${cedente.id}`, { limite_centavos: 500_000 }), 200)

    // By the operation: its steps, named by its number.
    const ofOp = await trail(mine.operador.call, `&alvo_id=${op.id}`)
    assert.deepEqual(ofOp.map((r) => r.acao).reverse(), ['operacao.criada', 'operacao.cotada', 'operacao.aceita', 'operacao.formalizada'])
    assert.ok(ofOp.every((r) => r.alvo_nome === `Operação nº ${op.numero}`))
    // The token's rows carry the token's name; filtered by it, only its rows.
    const tokenId = ofOp[0]!.ator_id!
    assert.equal(ofOp[0]!.ator_tipo, 'token')
    assert.equal(ofOp[0]!.ator_nome, 'token da pessoa')
    const byToken = await trail(mine.operador.call, `&ator_id=${tokenId}`)
    assert.ok(byToken.length >= 9)
    assert.ok(byToken.every((r) => r.ator_id === tokenId))

    // By action: the cedente's change, named, with what changed before and after.
    const changed = await trail(mine.operador.call, '&acao=cedente.alterado')
    assert.equal(changed.length, 1)
    assert.equal(changed[0]!.alvo_nome, 'Cedente Exemplo Ltda')
    assert.deepEqual(changed[0]!.alteracoes, { limite_centavos: { antes: null, depois: 500_000 } })
    assert.equal((await trail(mine.operador.call, '&acao=sacado.criado')).length, 3)

    // A person acting in the back office: their name, and their rows by their id.
    const person = await colleagueWithPassword(ctx.db, mine.clienteId, 'operador')
    const web = await signIn(ctx.app, person.email)
    await web.done('/conta/sacados', 'form-sacado', { documento: '39053344705', razao_social: 'Sacado da Pessoa' })
    const byPerson = await trail(mine.operador.call, `&ator_id=${person.usuarioId}`)
    assert.deepEqual(byPerson.map((r) => r.acao).filter((a) => a === 'sacado.criado'), ['sacado.criado'])
    const made = byPerson.find((r) => r.acao === 'sacado.criado')!
    assert.equal(made.ator_nome, 'Pessoa operador')
    assert.equal(made.alvo_nome, 'Sacado da Pessoa')

    // By period, in Brasília's days: 23:30 of the 5th in Brasília is the 6th in UTC, and still the 5th here.
    clock.set('2026-10-06T02:30:00Z')
    created(await mine.operador.call('POST', '/api/sacados', { documento: '12345678909', razao_social: 'Sacado da Noite' }))
    clock.set('2026-10-06T03:30:00Z')
    created(await mine.operador.call('POST', '/api/sacados', { documento: '98765432100', razao_social: 'Sacado da Madrugada' }))
    const names = (rows: Row[]) => rows.filter((r) => r.acao === 'sacado.criado').map((r) => r.alvo_nome)
    assert.ok(names(await trail(mine.operador.call, '&de=2026-10-05&ate=2026-10-05')).includes('Sacado da Noite'))
    assert.ok(!names(await trail(mine.operador.call, '&de=2026-10-05&ate=2026-10-05')).includes('Sacado da Madrugada'))
    assert.deepEqual(names(await trail(mine.operador.call, '&de=2026-10-06')), ['Sacado da Madrugada'])
    assert.deepEqual(await trail(mine.operador.call, '&ate=2026-10-04'), [])
    // Together: each narrows the others.
    assert.deepEqual((await trail(mine.operador.call, `&acao=sacado.criado&ator_id=${tokenId}&de=2026-10-06`)).map((r) => r.alvo_nome), ['Sacado da Madrugada'])

    // Another customer's: never, by any filter.
    assert.deepEqual(await trail(mine.operador.call, `&alvo_id=${other.op.id}`), [])
    const theirToken = (await trail(theirs.operador.call, `&alvo_id=${other.op.id}`))[0]!.ator_id!
    assert.deepEqual(await trail(mine.operador.call, `&ator_id=${theirToken}`), [])
    assert.deepEqual((await trail(mine.operador.call, '&acao=operacao.criada')).map((r) => r.alvo_id), [op.id])

    // What is not a filter is refused, never a 500.
    for (const q of ['acao=operacao.inventada', 'ator_id=nao-e-id', 'alvo_id=1', 'de=2026-02-30', 'ate=ontem', 'de=2026-13-01', 'de=0000-01-01',
      'de=2026-12-01&ate=2026-11-01']) {
      const res = await mine.operador.call('GET', `/api/conta/auditoria?${q}`)
      assert.equal(res.statusCode, 422, q)
    }
  })
})
