// An operation's read pages its títulos (issue 31 item 9): an operation of thousands once answered 40 MB to every
// read. The read answers a page in the order the títulos were added, the totals of all of them, and the latest
// quote's totals whole with the lines of that page's títulos only; `titulos_proximo` leads to the next page.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/fixture.ts'
import { backOffice, created, exampleRegisters, exampleTitles, settableClock } from './helpers.ts'

type Titulo = { id: string, numero: string, valor_face_centavos: number }
type Linha = { titulo_id: string, valor_face_centavos: number }

describe('an operation\'s read', () => {
  const clock = settableClock('2026-10-05T15:00:00Z')
  const ctx = useTestApp({ env: { MAIL_WORKER: 'off' }, deps: { clock } })

  it('pages its títulos in the order added, with the totals of all and the quote\'s lines of the page', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    const sacados = regs.sacados.map((s: { id: string }) => s.id)
    const N = 450
    const titulos = Array.from({ length: N }, (_, i) => ({ ...exampleTitles(sacados)[i % 3]!, numero: `N${i}`, valor_face_centavos: 100_000 + i }))
    const op = created(await operador.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id, titulos }))
    // The draft's own answer is the first page too.
    assert.equal(op.titulos.length, 200)
    assert.equal(op.quantidade_titulos, N)
    const quote = created(await operador.call('POST', `/api/operacoes/${op.id}/cotacao`), 201)
    assert.equal(quote.linhas.length, N, 'the quote itself answers every line')

    const seen: Titulo[] = []
    let next: number | null = null
    let pages = 0
    do {
      const url: string = `/api/operacoes/${op.id}?titulos_limite=150${next === null ? '' : `&titulos_apos=${next}`}`
      const page = created(await operador.call('GET', url), 200)
      pages++
      assert.equal(page.quantidade_titulos, N)
      assert.equal(page.valor_face_centavos, N * 100_000 + (N * (N - 1)) / 2)
      assert.deepEqual(page.cotacao.totais, quote.totais, 'the totals stay whole')
      assert.deepEqual(page.cotacao.linhas.map((l: Linha) => l.titulo_id), page.titulos.map((t: Titulo) => t.id), 'the lines of this page, in its order')
      assert.deepEqual(page.cotacao.linhas, quote.linhas.slice(seen.length, seen.length + page.titulos.length))
      seen.push(...page.titulos)
      next = page.titulos_proximo
    } while (next !== null)
    assert.equal(pages, 3)
    assert.deepEqual(seen.map((t) => t.numero), titulos.map((t) => t.numero), 'every título once, in the order added')

    const first = created(await operador.call('GET', `/api/operacoes/${op.id}`), 200)
    assert.equal(first.titulos.length, 200, '200 unless titulos_limite says')
    assert.equal(typeof first.titulos_proximo, 'number')
    const whole = created(await operador.call('GET', `/api/operacoes/${op.id}?titulos_limite=1000`), 200)
    assert.equal(whole.titulos.length, N)
    assert.equal(whole.titulos_proximo, null)
  })

  it('a page out of shape is 422 on its parameter', async () => {
    const { operador } = await backOffice(ctx.db, ctx.app, clock)
    const regs = await exampleRegisters(operador.call)
    const op = created(await operador.call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    assert.equal(op.quantidade_titulos, 0)
    assert.equal(op.titulos_proximo, null)
    for (const [query, field] of [['titulos_limite=0', 'titulos_limite'], ['titulos_limite=1001', 'titulos_limite'], ['titulos_apos=-1', 'titulos_apos'],
      ['titulos=1', 'titulos']] as const) {
      const res = await operador.call('GET', `/api/operacoes/${op.id}?${query}`)
      assert.equal(res.statusCode, 422, query)
      assert.deepEqual(res.json().detail.map((d: { loc: unknown[] }) => d.loc), [['querystring', field]], query)
    }
  })
})
