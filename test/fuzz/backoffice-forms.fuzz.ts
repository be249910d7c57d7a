// Fuzzing the back office (part of `npm run test:fuzz`, issue 19): every form post of /conta's product pages with
// hostile text, odd numbers and amounts, broken dates, ids that are not (or are another's), and every page with
// hostile query strings. Never a 5xx, never a line logged at error level, and the session survives. The seed is
// printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { csrfOf, login, PASSWORD, personWithPassword, postForm } from '../helpers/account-web.ts'
import { unthrottledEnv } from './kit.ts'
import { useTestApp } from '../helpers/fixture.ts'
import { callerFor, created, exampleRegisters } from '../modules/operations/helpers.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 19_2026)
const RUNS = Number(process.env.FUZZ_BACKOFFICE_RUNS ?? 150)
console.log(`fuzz (back office): seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`)

const HOSTILE = ['\x1b[31m', '\x1b]52;c;ZWNobw==\x07', '\u009b2J', '\n', '\r\n', '\u0000', '\u202e', 'e\u0301', '😀', '<script>', '"', '&amp;', '../', '%00']
const NUMBERS = ['1e300', '-1', '9'.repeat(40), 'NaN', '0', '0,001', '1.234,567', '1.2.3', '12,3', 'R$ 10,00', '  7 ', '３０', '0x1F', '']
const DATES = ['2026-02-30', '2026-13-01', '0000-01-01', '9999-12-31', '2026-10-05', '2026-10-05T25:61', '2026-10-05T12:00', 'ontem', '']

const piece = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }))
const text = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''))
const number = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer().map(String), fc.double().map(String), text)
const date = fc.oneof(fc.constantFrom(...DATES), text)
const anything = fc.oneof(text, number, date, fc.uuid(), fc.constant('x'.repeat(3000)))

/** Field names the back office's forms use, each with values near what it expects and beyond. */
const FIELDS: Record<string, fc.Arbitrary<string>> = {
  documento: fc.oneof(fc.constantFrom('111.444.777-35', '11.222.333/0001-81', '12.ABC.345/01DE-35'), text, number),
  razao_social: text, limite: number, municipio_ibge: fc.oneof(fc.constant('3550308'), number), uf: fc.oneof(fc.constantFrom('SP', 'sp', 'XX'), text),
  perfil_iof: fc.oneof(fc.constantFrom('pj', 'pj_simples', 'pf', 'isento'), text), motivo_isencao: fc.oneof(fc.constantFrom('cooperativa', 'rural'), text),
  simples_data: date, simples_sha256: fc.oneof(fc.constant('ab'.repeat(32)), text), banco: number, agencia: number, conta: number,
  digito: fc.oneof(fc.constantFrom('1', 'X'), text), nome: text, base: fc.oneof(fc.constantFrom('simples_30', 'composta_30'), text), taxa_mensal: number,
  taxa_ad_valorem: number, tarifa: number, tac: number, dias_float: number, iof: fc.oneof(fc.constantFrom('calcular', 'isento'), text), data: date,
  descricao: text, feriado_id: anything, cedente_id: anything, produto_id: anything, data_operacao: date, tipo: fc.oneof(fc.constant('cheque'), text),
  numero: text, sacado_id: anything, emissao: date, vencimento: date, valor_face: number, chave_nfe: fc.oneof(fc.constant('1'.repeat(44)), text, number),
  titulo_id: anything, cotacao_versao: number, termo_sha256: fc.oneof(fc.constant('ab'.repeat(32)), text), assinado_em: date, signatario_nome: text,
  signatario_documento: text, conta_bancaria: fc.oneof(fc.constant('341|1234|567890|1'), text), motivo: text, volta: fc.oneof(
    fc.constantFrom('/conta/desembolsos', 'https://outro.example/', '//outro.example', '/conta/operacoes/../../x', 'javascript:alert(1)'), text),
  id_transacao: text, pago_em: date, formulario: text, chave: fc.oneof(fc.uuid(), text),
}

const fields = fc.dictionary(fc.constantFrom(...Object.keys(FIELDS)), fc.constant(0)).chain((d) =>
  fc.record(Object.fromEntries(Object.keys(d).map((k) => [k, FIELDS[k]!]))) as fc.Arbitrary<Record<string, string>>)

describe('fuzz: the back office', () => {
  const logs: Array<{ level?: number, msg?: string }> = []
  // A page makes several API reads: the credential's budget is lifted with the rest.
  const ctx = useTestApp(() => ({ env: unthrottledEnv(), logs, logLevel: 'warn' }))

  it(`${RUNS} posts and page reads: no 5xx, nothing logged at error level, the session survives`, async () => {
    const p = await personWithPassword(ctx.db)
    const call = await callerFor(ctx.db, ctx.app, p.clienteId, p.usuarioId)
    const regs = await exampleRegisters(call)
    const op = created(await call('POST', '/api/operacoes', { cedente_id: regs.cedente.id, produto_id: regs.produto.id }))
    const ids = fc.oneof(fc.constantFrom(op.id, regs.cedente.id, randomUUID()), fc.uuid(), text.map(encodeURIComponent))
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.121')
    const csrf = csrfOf((await ctx.app.inject({ url: '/conta/operacoes', headers: { cookie } })).body)
    const posts = fc.oneof(
      fc.constantFrom('/conta/cedentes', '/conta/sacados', '/conta/produtos', '/conta/feriados', '/conta/feriados/remover', '/conta/operacoes'),
      fc.tuple(ids, fc.constantFrom('titulos', 'remover-titulo', 'cotacao', 'aceite', 'formalizacao', 'desembolso', 'cancelamento', 'nada'))
        .map(([id, acao]) => `/conta/operacoes/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('aprovacao', 'pagamento', 'outra')).map(([id, acao]) => `/conta/desembolsos/${id}/${acao}`),
    )
    const reads = fc.tuple(
      fc.oneof(fc.constantFrom('/conta/operacoes', '/conta/feriados', '/conta/razao', '/conta/desembolsos'), ids.map((id) => `/conta/operacoes/${id}`),
        ids.map((id) => `/conta/cedentes/${id}`)),
      fc.dictionary(fc.constantFrom('ano', 'de', 'ate', 'feito', 'aviso'), fc.oneof(date, number, text)),
    ).map(([path, q]) => `${path}?${new URLSearchParams(q)}`)
    const seen = new Map<string, number>()
    const request = fc.oneof(
      fc.record({ path: posts, form: fields, withCsrf: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)) }),
      fc.record({ read: reads }),
    )
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const res = 'read' in r
        ? await ctx.app.inject({ url: r.read, headers: { cookie, accept: 'text/html' } })
        : await postForm(ctx.app, r.path, { ...r.form, ...(r.withCsrf ? { csrf } : {}) }, { cookie })
      const label = 'read' in r ? `GET ${r.read.split('?')[0]!.replace(/[0-9a-f-]{36}/, ':id')}` : `POST ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`
      seen.set(`${label.slice(0, 60)} ${res.statusCode}`, (seen.get(`${label.slice(0, 60)} ${res.statusCode}`) ?? 0) + 1)
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${JSON.stringify(r)}: ${res.body.slice(0, 500)}`)
      assert.ok(![res.headers.location].flat().some((l) => l?.startsWith('/conta/entrar')), 'the session survived')
      const location = String(res.headers.location ?? '/')
      assert.ok(location.startsWith('/') && !location.startsWith('//'), `a redirect stays on this site: ${location}`)
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (back office): ${JSON.stringify(Object.fromEntries(seen))}`)
    assert.deepEqual(logs.filter((l) => (l.level ?? 0) >= 50), [])
  })
})
