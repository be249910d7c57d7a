// Fuzzing the back office (part of `npm run test:fuzz`, issue 19): every form post of /conta's product pages with
// hostile text, odd numbers and amounts, broken dates, ids that are not (or are another's), and every page with
// hostile query strings. Never a 5xx, never a line logged at error level, and the session survives. The seed is
// printed; FUZZ_SEED=<seed> replays a failure.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { csrfOf, login, PASSWORD, personWithPassword, postForm, SITE_ORIGIN } from '../helpers/account-web.ts'
import { brasiliaDay } from '../../src/platform/lib/brasilia-time.ts'
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
  simples_data: date, simples_sha256: fc.oneof(fc.constant('ab'.repeat(32)), text), banco: fc.oneof(fc.constantFrom('001', '341', '237'), number),
  agencia: fc.oneof(fc.constant('1234'), number), conta: fc.oneof(fc.constant('56789'), number),
  digito: fc.oneof(fc.constantFrom('1', 'X'), text), nome: text, base: fc.oneof(fc.constantFrom('simples_30', 'composta_30'), text), taxa_mensal: number,
  taxa_ad_valorem: number, tarifa: number, tac: number, dias_float: number, iof: fc.oneof(fc.constantFrom('calcular', 'isento'), text), data: date,
  descricao: text, feriado_id: anything, cedente_id: anything, produto_id: anything, data_operacao: date, tipo: fc.oneof(fc.constant('cheque'), text),
  numero: text, sacado_id: anything, emissao: date, vencimento: date, valor_face: number, chave_nfe: fc.oneof(fc.constant('1'.repeat(44)), text, number),
  titulo_id: anything, cotacao_versao: number, termo_sha256: fc.oneof(fc.constant('ab'.repeat(32)), text), assinado_em: date, signatario_nome: text,
  signatario_documento: text, conta_bancaria: fc.oneof(fc.constant('341|1234|567890|1'), text), motivo: text, volta: fc.oneof(
    fc.constantFrom('/conta/desembolsos', 'https://outro.example/', '//outro.example', '/conta/operacoes/../../x', 'javascript:alert(1)'), text),
  id_transacao: text, pago_em: date, formulario: text, chave: fc.oneof(fc.uuid(), text), conta_cobranca_id: anything,
  // Issue 33's forms: an instruction, a buy-back.
  cobranca_id: anything, instrucao: fc.oneof(fc.constantFrom('alteracao_vencimento', 'abatimento', 'baixa', 'protestar'), text), abatimento: number,
  forma: fc.oneof(fc.constantFrom('pagamento', 'compensacao'), text),
  // A charge by its form, a collection account by its form.
  juros_tipo: fc.oneof(fc.constantFrom('isento', 'valor_dia', 'taxa_mensal'), text), juros_valor: number, juros_taxa: number, multa: number,
  protesto_dias: fc.oneof(fc.constantFrom('0', '5', '99', '100'), text), conta_digito: fc.oneof(fc.constant('7'), text),
  carteira: fc.oneof(fc.constant('109'), text), convenio: text, layout_cnab: fc.oneof(fc.constantFrom('240', '400'), text),
  transporte: fc.oneof(fc.constantFrom('cnab', 'api'), text), chave_pix: text, motivo_cancelamento: text,
  // Issue 34: a webhook's delivery sent again.
  entrega_id: anything,
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
    // A collection account, so that a retorno's bytes reach the CNAB parser through the back office's form.
    const conta = created(await call('POST', '/api/contas-cobranca', {
      nome: 'BB cobrança', banco: '001', agencia: '3064', conta: '123456', conta_digito: 'X', carteira: '17', convenio: '1234567',
    }))
    const ids = fc.oneof(fc.constantFrom(op.id, regs.cedente.id, conta.id, randomUUID()), fc.uuid(), text.map(encodeURIComponent))
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.121')
    const csrf = csrfOf((await ctx.app.inject({ url: '/conta/operacoes', headers: { cookie } })).body)
    const posts = fc.oneof(
      fc.constantFrom('/conta/cedentes', '/conta/sacados', '/conta/produtos', '/conta/feriados', '/conta/feriados/remover', '/conta/operacoes',
        '/conta/cobrancas/retornos', '/conta/cobrancas/instrucoes', '/conta/cobrancas/recompras', '/conta/cobrancas', '/conta/cobrancas/contas'),
      fc.tuple(ids, fc.constantFrom('email', 'nada')).map(([id, acao]) => `/conta/cobrancas/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('pagamento', 'cancelamento', 'nada')).map(([id, acao]) => `/conta/cobrancas/recompras/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('confirmacao', 'nada')).map(([id, acao]) => `/conta/cobrancas/contas/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('titulos', 'remover-titulo', 'cotacao', 'aceite', 'formalizacao', 'desembolso', 'cancelamento', 'nada'))
        .map(([id, acao]) => `/conta/operacoes/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('aprovacao', 'pagamento', 'falha', 'recusa', 'outra')).map(([id, acao]) => `/conta/desembolsos/${id}/${acao}`),
      fc.tuple(ids, fc.constantFrom('teste', 'desativacao', 'reativacao', 'reenvio', 'nada')).map(([id, acao]) => `/conta/webhooks/${id}/${acao}`),
    )
    const reads = fc.tuple(
      fc.oneof(fc.constantFrom('/conta/operacoes', '/conta/feriados', '/conta/razao', '/conta/desembolsos', '/conta/auditoria', '/conta/titulos',
        '/conta/cedentes', '/conta/sacados', '/conta', '/conta/pessoas', '/conta/cobrancas', '/conta/cobrancas/retornos',
        '/conta/cobrancas/recompras', '/conta/cobrancas/remessas', '/conta/cobrancas/contas', '/conta/cobrancas/nova', '/conta/webhooks'),
      ids.map((id) => `/conta/operacoes/${id}`), ids.map((id) => `/conta/webhooks/${id}`), ids.map((id) => `/conta/cedentes/${id}`),
      ids.map((id) => `/conta/cobrancas/retornos/${id}`)),
      // Issue 32's list parameters (a search, the filters, an order, a page, an export) and the audit's filters.
      fc.dictionary(fc.constantFrom('ano', 'de', 'ate', 'feito', 'aviso', 'antes', 'ator_id', 'acao', 'alvo_id', 'busca', 'ordem', 'pagina', 'formato',
        'estado', 'cedente_id', 'sacado_id', 'data_operacao_de', 'vencimento_ate', 'criado_de', 'conta', 'conta_cobranca_id', 'resultado', 'depois',
        'entrega'),
      fc.oneof(date, number, text, fc.uuid(), fc.constantFrom('desembolso.recusado', 'operacao.inventada', 'csv', 'numero', '-vencimento', '%'))),
    ).map(([path, q]) => `${path}?${new URLSearchParams(q)}`)
    const postMultipart = (url: string, form: Record<string, string>, f: { bytes: Uint8Array, filename: string, type: string, cut?: number | undefined }) => {
      const boundary = 'fronteira-do-fuzz'
      const parts = Object.entries(form).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
      const field = url.endsWith('/formalizacao') ? 'termo_arquivo' : 'arquivo'
      const head = `Content-Disposition: form-data; name="${field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}`
      parts.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`),
        Buffer.from(f.bytes), Buffer.from(`\r\n--${boundary}--\r\n`))
      const body = Buffer.concat(parts)
      return ctx.app.inject({
        method: 'POST', url, payload: f.cut === undefined ? body : body.subarray(0, f.cut),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: SITE_ORIGIN, accept: 'text/html', cookie },
      })
    }
    const seen = new Map<string, number>()
    // The formalization's form and the retorno's as multipart (issues 32 and 33): a file of any bytes, name and type beside the fields, or a body
    // cut anywhere.
    const uploads = fc.record({
      upload: fc.oneof(ids.map((id) => `/conta/operacoes/${id}/formalizacao`), fc.constant('/conta/cobrancas/retornos')),
      form: fields.map((f) => ({ ...f, conta_cobranca_id: f.conta_cobranca_id ?? conta.id as string })), bytes: fc.uint8Array({ maxLength: 1024 }),
      filename: fc.oneof(fc.constant('termo.pdf'), text), type: fc.constantFrom('application/pdf', 'image/png', 'text/html', 'x/y', ''),
      cut: fc.option(fc.nat(2000), { nil: undefined }),
    })
    const request = fc.oneof(
      fc.record({ path: posts, form: fields, withCsrf: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)) }),
      fc.record({ read: reads }),
      uploads,
    )
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const res = 'read' in r
        ? await ctx.app.inject({ url: r.read, headers: { cookie, accept: 'text/html' } })
        : 'upload' in r ? await postMultipart(r.upload, { ...r.form, csrf }, r)
          : await postForm(ctx.app, r.path, { ...r.form, ...(r.withCsrf ? { csrf } : {}) }, { cookie })
      const label = 'read' in r ? `GET ${r.read.split('?')[0]!.replace(/[0-9a-f-]{36}/, ':id')}`
        : `POST ${('upload' in r ? `${r.upload} (multipart)` : r.path).replace(/[0-9a-f-]{36}/, ':id')}`
      seen.set(`${label.slice(0, 60)} ${res.statusCode}`, (seen.get(`${label.slice(0, 60)} ${res.statusCode}`) ?? 0) + 1)
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${JSON.stringify(r)}: ${res.body.slice(0, 500)}`)
      assert.ok(![res.headers.location].flat().some((l) => l?.startsWith('/conta/entrar')), 'the session survived')
      const location = String(res.headers.location ?? '/')
      assert.ok(location.startsWith('/') && !location.startsWith('//'), `a redirect stays on this site: ${location}`)
    }), { seed: SEED, numRuns: RUNS })
    console.log(`fuzz (back office): ${JSON.stringify(Object.fromEntries(seen))}`)
    assert.deepEqual(logs.filter((l) => (l.level ?? 0) >= 50), [])
  })

  // The manual entries' page (issue 32 item 10): its proposal form's line rows, and the confirmation and refusal of
  // known, unknown and malformed ids, as an administrador (who may propose, withdraw, and not confirm their own).
  it('the manual entries\' forms: no 5xx, nothing logged at error level, the session survives', async () => {
    const p = await personWithPassword(ctx.db)
    const cookie = await login(ctx.app, p.email, PASSWORD, '198.51.100.122')
    const page = '/conta/razao/lancamentos-manuais'
    const csrf = csrfOf((await ctx.app.inject({ url: page, headers: { cookie } })).body)
    const call = await callerFor(ctx.db, ctx.app, p.clienteId, p.usuarioId)
    const entry = created(await call('POST', '/api/lancamentos-manuais', { data: brasiliaDay(new Date()), historico: 'Aporte', motivo: 'aporte_capital',
      justificativa: 'Extrato', linhas: [{ conta: 'banco', debito_centavos: 100 }, { conta: 'capital_social', credito_centavos: 100 }],
    }, { 'idempotency-key': randomUUID() })).id as string
    const ids = fc.oneof(fc.constantFrom(entry, randomUUID()), fc.uuid(), text.map(encodeURIComponent))
    const conta = fc.oneof(fc.constantFrom('banco', 'capital_social', 'despesas_bancarias', 'conta_grafica_cedentes', ''), text)
    const line = (n: number) => ({ [`conta_${n}`]: conta, [`debito_${n}`]: number, [`credito_${n}`]: number })
    const form = fc.record({
      data: date, historico: text, justificativa: text, motivo: fc.oneof(fc.constantFrom('aporte_capital', 'ajuste'), text), chave: fc.uuid(),
      ...line(1), ...line(2), ...line(3), ...line(4), conta_9: conta,
    }, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>
    const request = fc.oneof(
      fc.record({ path: fc.oneof(fc.constant(page), fc.tuple(ids, fc.constantFrom('confirmacao', 'recusa', 'outra')).map(([id, acao]) =>
        `${page}/${id}/${acao}`)), form: fc.oneof(form, fields) }),
      fc.record({ read: fc.dictionary(fc.constantFrom('feito', 'antes', 'estado'), fc.oneof(text, number)).map((q) => `${page}?${new URLSearchParams(q)}`) }),
    )
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const res = 'read' in r
        ? await ctx.app.inject({ url: r.read, headers: { cookie, accept: 'text/html' } })
        : await postForm(ctx.app, r.path, { ...r.form, csrf }, { cookie })
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${JSON.stringify(r)}: ${res.body.slice(0, 500)}`)
      assert.ok(![res.headers.location].flat().some((l) => l?.startsWith('/conta/entrar')), 'the session survived')
    }), { seed: SEED, numRuns: Math.ceil(RUNS / 3) })
    assert.deepEqual(logs.filter((l) => (l.level ?? 0) >= 50), [])
  })
})
